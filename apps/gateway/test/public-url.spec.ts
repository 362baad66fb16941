import type { GatewayConfig } from '../src/config';
import { PublicUrl } from '../src/dashboard/public-url';

/** The email links' base comes from configuration only (issue 39), never from a request. */
const urlFor = (config: Partial<GatewayConfig>, listening?: string) => {
  const url = new PublicUrl({ PORT: 8080, ...config } as GatewayConfig);
  if (listening !== undefined) url.setListening(listening);
  return { base: url.base, configured: url.configured };
};

describe('PublicUrl', () => {
  it('is PUBLIC_URL when set, without a trailing slash', () => {
    const config = { PUBLIC_URL: 'https://api.example.com/', SIGNUP_URL: 'https://other.example.com/dashboard/' };
    expect(urlFor(config, 'http://localhost:8080')).toEqual({ base: 'https://api.example.com', configured: 'https://api.example.com' });
  });

  it('without PUBLIC_URL, is the origin (and path prefix) of a SIGNUP_URL that names the dashboard', () => {
    expect(urlFor({ SIGNUP_URL: 'https://app.example.com/dashboard/' }, 'http://localhost:8080').base).toBe('https://app.example.com');
    expect(urlFor({ SIGNUP_URL: 'https://example.com/credit/dashboard' }).base).toBe('https://example.com/credit');
  });

  it('falls back to the listening address, marked as not configured, when SIGNUP_URL names another page', () => {
    expect(urlFor({ SIGNUP_URL: 'https://example.com/pricing' }, 'http://localhost:9000')).toEqual({
      base: 'http://localhost:9000',
      configured: undefined,
    });
    expect(urlFor({ SIGNUP_URL: 'https://example.com/dashboard/?ref=402' }).base).toBe('http://localhost:8080');
    expect(urlFor({}).configured).toBeUndefined();
  });
});
