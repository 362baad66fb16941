import { redactUrl, redactUrlToHost, redactUrlsIn } from '../src/redact-url';

describe('redactUrl', () => {
  it.each([
    ['redis://:s3cret@redis.internal:6379/2', 'redis://:***@redis.internal:6379/2'],
    ['redis://default:s3cret@redis.internal:6379', 'redis://default:***@redis.internal:6379'],
    [
      'postgresql://credit:p%40ss@db:5432/credit?sslmode=require&password=x',
      'postgresql://credit:***@db:5432/credit?sslmode=***&password=***',
    ],
    ['smtps://mailer:hunter2hunter2@smtp.example.com:465', 'smtps://mailer:***@smtp.example.com:465'],
    ['nats://gateway:pw@n1:4222,nats://gateway:pw@n2:4222', 'nats://gateway:***@n1:4222,nats://gateway:***@n2:4222'],
    ['https://facilitator.example.com/v1?api_key=abc#token', 'https://facilitator.example.com/v1?api_key=***#***'],
    ['redis://127.0.0.1:6379', 'redis://127.0.0.1:6379'],
  ])('%s', (url, expected) => {
    expect(redactUrl(url)).toBe(expected);
  });

  it('never echoes a value that is not a URL (it may be a secret typed in the wrong place)', () => {
    expect(redactUrl('hunter2')).toBe('<unparseable URL>');
  });
});

describe('redactUrlToHost: an RPC URL, whose API key may sit anywhere past the host', () => {
  const SECRET = 'S3cr3tKeyDoNotLog';

  it('keeps scheme, host and port only', () => {
    expect(redactUrlToHost(`https://eth-mainnet.example.com/v2/${SECRET}`)).toBe('https://eth-mainnet.example.com/…');
    expect(redactUrlToHost(`wss://user:${SECRET}@node.example.com:8546`)).toBe('wss://node.example.com:8546/…');
    expect(redactUrlToHost('http://127.0.0.1:8545')).toBe('http://127.0.0.1:8545');
    expect(redactUrlsIn(`URL: https://rpc.example.com/?apikey=${SECRET} failed`)).toBe('URL: https://rpc.example.com/… failed');
  });
});
