import { Writable } from 'node:stream';
import { createLogger } from '../src/logger';
import { startRequestTrace } from '../src/request-trace';

/** A logger whose JSON lines land in `lines`. */
function capturedLogger(level: 'log' | 'debug' = 'log') {
  const lines: Record<string, unknown>[] = [];
  const raw: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      for (const line of chunk.toString('utf8').split('\n').filter(Boolean)) {
        raw.push(line);
        lines.push(JSON.parse(line) as Record<string, unknown>);
      }
      callback();
    },
  });
  return { logger: createLogger('scoring', { level, destination }), lines, raw };
}

describe('the shared logger', () => {
  it('writes JSON lines with service, level, time and msg', () => {
    const { logger, lines } = capturedLogger();
    logger.info('started');
    logger.debug('not at the log level');
    expect(lines).toEqual([{ service: 'scoring', level: 'info', time: expect.stringMatching(/^\d{4}-\d\d-\d\dT/), msg: 'started' }]);
  });

  it('adds the request id and trace id to every line written while a request is handled, and only then', async () => {
    const { logger, lines } = capturedLogger();
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    const request = startRequestTrace('GET /x', `00-${traceId}-00f067aa0ba902b7-01`, 'req-1');
    await request.run(async () => {
      logger.info('before a wait');
      await new Promise((resolve) => setTimeout(resolve, 5));
      logger.warn('after a wait');
    });
    logger.info('outside');
    expect(lines.map(({ msg, request_id, trace_id }) => ({ msg, request_id, trace_id }))).toEqual([
      { msg: 'before a wait', request_id: 'req-1', trace_id: traceId },
      { msg: 'after a wait', request_id: 'req-1', trace_id: traceId },
      { msg: 'outside', request_id: undefined, trace_id: undefined },
    ]);
  });
});

describe('redaction (docs/SECURITY.md: no secret in a log line)', () => {
  const apiKey = `csk_${'A1b2C3d4E5'.repeat(4)}`;
  const cookie = 'credit_session=s3ss10nT0k3nValue';
  const password = 'correct horse battery staple';

  it('hides a bearer key, a cookie and a password body of a logged request', () => {
    const { logger, raw } = capturedLogger();
    const req = {
      method: 'POST',
      url: '/dashboard/api/signin',
      headers: { authorization: `Bearer ${apiKey}`, cookie, 'x-api-key': apiKey, 'content-type': 'application/json' },
      body: { email: 'a@example.com', password },
    };
    logger.info({ req }, 'request');
    logger.info({ headers: req.headers, body: req.body }, 'the same, one level up');
    logger.info({ password, token: 'tok_123456789', apiKey }, 'at the top');
    const text = raw.join('\n');
    for (const secret of [apiKey, 's3ss10nT0k3nValue', password, 'tok_123456789']) expect(text).not.toContain(secret);
    expect(text).toContain('"content-type":"application/json"');
    expect(text).toContain('"email":"a@example.com"');
  });

  it('hides the passwords of connection URLs, in settings, messages and errors', () => {
    const { logger, raw } = capturedLogger();
    logger.info(
      { config: { DATABASE_URL: 'postgresql://app:pgSecret1@db:5432/credit', REDIS_URL: 'redis://:redisSecret2@cache:6379' } },
      'config',
    );
    logger.warn('cannot reach nats://gateway:natsSecret3@nats:4222, retrying');
    logger.error({ err: new Error('connect ECONNREFUSED redis://:redisSecret4@cache:6379') }, 'failed');
    const text = raw.join('\n');
    for (const secret of ['pgSecret1', 'redisSecret2', 'natsSecret3', 'redisSecret4']) expect(text).not.toContain(secret);
    expect(text).toContain('postgresql://app:***@db:5432/credit');
    expect(text).toContain('nats://gateway:***@nats:4222');
  });
});
