import { redactUrl } from '../src/redact-url';

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
