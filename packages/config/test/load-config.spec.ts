import { z } from 'zod';
import { databaseEnv, healthEnv, httpEnv, logEnv, natsEnv, positiveInt, redisEnv } from '../src/fragments';
import { ConfigError, loadConfig } from '../src/load-config';

/** loadConfig over the shared fragments: defaults, rejections, one message naming every problem. */
const Schema = z.object({
  ...natsEnv,
  ...databaseEnv,
  ...redisEnv,
  ...httpEnv,
  ...logEnv,
  ...healthEnv,
  RPC_TIMEOUT_MS: positiveInt(5_000),
});

function configError(env: NodeJS.ProcessEnv, app = 'test-app'): ConfigError {
  try {
    loadConfig(app, Schema, env);
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error(`expected ${JSON.stringify(env)} to be rejected`);
}

describe('loadConfig: defaults', () => {
  it('an empty environment gets every default', () => {
    expect(loadConfig('test-app', Schema, {})).toEqual({
      NATS_URL: 'nats://127.0.0.1:4222',
      NATS_SUBJECT_PREFIX: '',
      DATABASE_URL: 'postgresql://postgres@127.0.0.1:5432/credit',
      REDIS_URL: 'redis://127.0.0.1:6379',
      HOST: '0.0.0.0',
      PORT: 8080,
      LOG_LEVEL: 'log',
      ACCESS_LOG: 'off',
      METRICS: 'on',
      HEALTH_PORT: 0,
      RPC_TIMEOUT_MS: 5_000,
    });
  });

  it('given values win, numbers are coerced, strings trimmed, unknown variables ignored', () => {
    const config = loadConfig('test-app', Schema, {
      NATS_URL: ' nats://a:4222,tls://b:4222 ',
      NATS_SUBJECT_PREFIX: ' t0a1b2.stack-1_x ',
      DATABASE_URL: 'postgres://u:p@db:5432/credit',
      REDIS_URL: 'rediss://cache:6380',
      PORT: '3000',
      HEALTH_PORT: '9090',
      LOG_LEVEL: 'debug',
      ACCESS_LOG: 'on',
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318',
      OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
      OTEL_TRACES_SAMPLER_ARG: '0.05',
      METRICS: 'off',
      RPC_TIMEOUT_MS: '250',
      PATH: '/usr/bin',
    });
    expect(config).toEqual({
      NATS_URL: 'nats://a:4222,tls://b:4222',
      NATS_SUBJECT_PREFIX: 't0a1b2.stack-1_x',
      DATABASE_URL: 'postgres://u:p@db:5432/credit',
      REDIS_URL: 'rediss://cache:6380',
      HOST: '0.0.0.0',
      PORT: 3000,
      LOG_LEVEL: 'debug',
      ACCESS_LOG: 'on',
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318',
      OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
      OTEL_TRACES_SAMPLER_ARG: 0.05,
      METRICS: 'off',
      HEALTH_PORT: 9090,
      RPC_TIMEOUT_MS: 250,
    });
    expect(config).not.toHaveProperty('PATH');
  });

  it('reads process.env when no environment is passed', () => {
    const saved = process.env['NATS_SUBJECT_PREFIX'];
    process.env['NATS_SUBJECT_PREFIX'] = 'from-process-env';
    try {
      expect(loadConfig('test-app', z.object(natsEnv)).NATS_SUBJECT_PREFIX).toBe('from-process-env');
    } finally {
      if (saved === undefined) delete process.env['NATS_SUBJECT_PREFIX'];
      else process.env['NATS_SUBJECT_PREFIX'] = saved;
    }
  });
});

describe('loadConfig: rejections', () => {
  it.each(['http://127.0.0.1:4222', '127.0.0.1:4222', '', 'nats://a:1,http://b:2', 'nats://a b'])('NATS_URL %j is rejected', (NATS_URL) => {
    const error = configError({ NATS_URL });
    expect(error.message).toContain('NATS_URL');
  });

  it.each(['mysql://u@h/db', 'redis://h:6379', 'http://h', 'not a url', ''])('DATABASE_URL %j is rejected', (DATABASE_URL) => {
    expect(configError({ DATABASE_URL }).message).toMatch(/DATABASE_URL: must be a URL \(postgres: or postgresql:\)/);
  });

  it('REDIS_URL must be redis: or rediss:', () => {
    expect(configError({ REDIS_URL: 'postgres://h/db' }).message).toContain('REDIS_URL');
  });

  it.each(['*', '>', 'a.*', 'a.>', 'a.*.b', 'a b', 'a..b', '.a', 'a.'])('NATS_SUBJECT_PREFIX %j is rejected', (prefix) => {
    expect(configError({ NATS_SUBJECT_PREFIX: prefix }).message).toMatch(/NATS_SUBJECT_PREFIX: .*wildcards/);
  });

  it.each([
    ['PORT', '70000'],
    ['PORT', '-1'],
    ['PORT', 'abc'],
    ['PORT', '80.5'],
    ['HEALTH_PORT', '65536'],
    ['LOG_LEVEL', 'trace'],
    ['ACCESS_LOG', 'yes'],
    ['OTEL_EXPORTER_OTLP_ENDPOINT', 'grpc://collector:4317'],
    ['OTEL_TRACES_SAMPLER', 'sometimes'],
    ['OTEL_TRACES_SAMPLER_ARG', '1.5'],
    ['METRICS', 'no'],
    ['RPC_TIMEOUT_MS', '0'],
    ['RPC_TIMEOUT_MS', '-5'],
  ])('%s=%j is rejected', (name, value) => {
    expect(configError({ [name]: value }).message).toContain(`${name}:`);
  });
});

describe('ConfigError', () => {
  it('names every bad variable at once, under the app name', () => {
    const error = configError(
      {
        NATS_URL: 'http://x',
        DATABASE_URL: 'mysql://x',
        NATS_SUBJECT_PREFIX: 'a.>',
        REDIS_URL: 'memcached://x',
        PORT: 'eighty',
        LOG_LEVEL: 'loud',
        RPC_TIMEOUT_MS: '0',
        HOST: 'fine',
      },
      'gateway',
    );
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe('ConfigError');
    const lines = error.message.split('\n');
    expect(lines[0]).toBe('gateway: invalid configuration');
    const named = lines.slice(1).map((line) => line.trim().split(':')[0]);
    expect(named.sort()).toEqual(
      ['DATABASE_URL', 'LOG_LEVEL', 'NATS_SUBJECT_PREFIX', 'NATS_URL', 'PORT', 'REDIS_URL', 'RPC_TIMEOUT_MS'].sort(),
    );
    expect(error.message).not.toContain('HOST');
  });

  it('does not echo the rejected values (a DATABASE_URL may hold a password)', () => {
    const error = configError({ DATABASE_URL: 'mysql://user:s3cr3t@h/db' });
    expect(error.message).not.toContain('s3cr3t');
  });

  it('a fragment missing a required variable is reported too', () => {
    const Required = z.object({ ...natsEnv, API_SECRET: z.string().min(1) });
    expect(() => loadConfig('svc', Required, { NATS_URL: 'bogus' })).toThrow(ConfigError);
    try {
      loadConfig('svc', Required, { NATS_URL: 'bogus' });
    } catch (error) {
      expect((error as Error).message).toContain('NATS_URL');
      expect((error as Error).message).toContain('API_SECRET');
    }
  });
});
