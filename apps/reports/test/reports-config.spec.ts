import { ConfigError } from '@credit/config/load-config';
import { reportsConfig } from '../src/config';

describe('reportsConfig', () => {
  it('names every bad setting at boot, in one error', () => {
    let thrown: unknown;
    try {
      reportsConfig({ WALLET_CACHE_TTL_SECONDS: '-5', REDIS_URL: 'http://nope', CHAINS: '[]' });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ConfigError);
    const message = (thrown as Error).message;
    expect(message).toContain('WALLET_CACHE_TTL_SECONDS');
    expect(message).toContain('REDIS_URL');
  });
});
