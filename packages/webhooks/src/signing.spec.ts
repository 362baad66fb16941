import { Webhook } from 'standardwebhooks';
import { generateSecret, secretKey, signature, signedHeaders } from './signing';

describe('Standard Webhooks signing', () => {
  const body = JSON.stringify({ type: 'ping', id: 'evt_1', created_at: '2026-11-30T00:00:00.000Z', sequence: 1, data: {} });

  it('makes headers the reference library (standardwebhooks 1.1) verifies', () => {
    const secret = generateSecret();
    const headers = signedHeaders(secret, 'evt_1', body, new Date());
    expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
  });

  it('signs as the reference library does, byte for byte', () => {
    const secret = generateSecret();
    const at = new Date('2026-11-30T12:00:00.000Z');
    expect(signature(secret, 'evt_2', at.getTime() / 1000, body)).toBe(new Webhook(secret).sign('evt_2', at, body));
  });

  it('is refused by the reference library under another secret or a changed body', () => {
    const secret = generateSecret();
    const headers = signedHeaders(secret, 'evt_3', body, new Date());
    expect(() => new Webhook(generateSecret()).verify(body, headers)).toThrow();
    expect(() => new Webhook(secret).verify(body.replace('ping', 'pong'), headers)).toThrow();
  });

  it('issues whsec_ secrets of 24 random bytes', () => {
    const secret = generateSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    expect(secretKey(secret)).toHaveLength(24);
    expect(generateSecret()).not.toBe(secret);
    expect(() => secretKey('nope')).toThrow(RangeError);
  });
});
