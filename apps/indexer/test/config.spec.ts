import { ConfigError } from '@credit/config/load-config';
import { indexerConfig, DEFAULT_CONFIRMATIONS } from '../src/config';
import { INDEXER_JOBS, parseJobPayload, rangeJobId } from '../src/job-catalog';
import { parsePerChainSetting } from '../src/per-chain-setting';

const chain = (id: number) => ({
  id,
  name: `chain ${id}`,
  rpcUrl: 'http://127.0.0.1:8545',
  nativeSymbol: 'ETH',
  nativePriceFeed: '0x5FbDB2315678afecb367f032d93F642f64180aa3',
});
const CHAINS = JSON.stringify([chain(1), chain(8453)]);

describe('indexer configuration', () => {
  it('defaults: 12 confirmations, block 0, ranges of 100, 4 workers', () => {
    const config = indexerConfig({ CHAINS });
    expect(config.chainSettings.get(1)).toEqual({ confirmations: DEFAULT_CONFIRMATIONS, startBlock: 0n });
    expect(config).toMatchObject({
      RANGE_SIZE: 100,
      CONCURRENCY: 4,
      HEALTH_PORT: 0,
      REDIS_URL: 'redis://127.0.0.1:6379',
      QUEUE_PREFIX: 'credit',
    });
  });

  it('takes confirmations and start blocks per chain', () => {
    const config = indexerConfig({ CHAINS, CONFIRMATIONS: '12, 8453=2', START_BLOCK: '8453=100' });
    expect(config.chainSettings.get(1)).toEqual({ confirmations: 12, startBlock: 0n });
    expect(config.chainSettings.get(8453)).toEqual({ confirmations: 2, startBlock: 100n });
  });

  it('names every problem at once: bad values, unknown chains, no registry', () => {
    const attempt = (env: NodeJS.ProcessEnv) => {
      try {
        indexerConfig(env);
      } catch (error) {
        expect(error).toBeInstanceOf(ConfigError);
        return (error as Error).message;
      }
      throw new Error('accepted');
    };
    const message = attempt({ RANGE_SIZE: '0', CONCURRENCY: 'many', CONFIRMATIONS: 'deep', REDIS_URL: 'http://x' });
    expect(message).toMatch(/RANGE_SIZE/);
    expect(message).toMatch(/CONCURRENCY/);
    expect(message).toMatch(/CONFIRMATIONS/);
    expect(message).toMatch(/REDIS_URL/);
    expect(message).toMatch(/no chains configured/);
    expect(attempt({ CHAINS, CONFIRMATIONS: '10=3' })).toMatch(/CONFIRMATIONS names chain 10, which is not configured/);
  });

  it('parses per-chain settings', () => {
    expect(parsePerChainSetting('', 12)).toEqual({ fallback: 12, byChain: new Map() });
    expect(parsePerChainSetting('5,1=12', 0)).toEqual({ fallback: 5, byChain: new Map([[1, 12]]) });
    expect(parsePerChainSetting('1=x', 0)).toMatch(/neither/);
  });
});

describe('job catalog', () => {
  it('validates payloads and names range jobs by their range', () => {
    const payload = parseJobPayload('range', { chainId: 1, fromBlock: '10', toBlock: '19' });
    expect(rangeJobId(payload)).toBe('range-1-10-19');
    expect(() => parseJobPayload('range', { chainId: 1, fromBlock: '20', toBlock: '19' })).toThrow(/fromBlock after toBlock/);
    expect(() => parseJobPayload('follow', { chainId: -1 })).toThrow();
    expect(Object.values(INDEXER_JOBS).map((j) => j.queue)).toEqual(['indexer.follow.v1', 'indexer.range.v1']);
  });
});
