import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError } from '@credit/config/load-config';
import {
  DEFAULT_MAX_CALLS_PER_MULTICALL,
  DEFAULT_PRICE_MAX_AGE_SECONDS,
  MULTICALL3_ADDRESS,
  loadChainRegistry,
  parseChainRegistry,
  type ChainConfigInput,
} from '../src/chain-config';
import { registryFromDevnetState } from '../src/devnet-registry';

// Real mainnet addresses (checksummed): Chainlink ETH/USD, USDC, USDC/USD, Aave V3 Pool, ENS.
const mainnet: ChainConfigInput = {
  id: 1,
  name: 'Ethereum',
  rpcUrl: 'https://eth.example.org/v1/key',
  nativeSymbol: 'ETH',
  nativePriceFeed: '0x5f4eC3Df9cbd43714FE2740f5E3616155c5b8419',
  tokens: [
    {
      symbol: 'USDC',
      name: 'USD Coin',
      address: '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48',
      decimals: 6,
      priceFeed: '0x8fFfFfd4AfB6115b954Bd326cbe7B4BA576818f6',
    },
  ],
  lendingPools: [{ name: 'Aave V3', address: '0x87870Bca3F3fD6335C3F4ce8392D69350B4fA4E2' }],
  ens: { registry: '0x00000000000C2E074eC69A0dFb2997BA6C7d2e1e', universalResolver: '0xce01f8eee7E479C928F8919abD53E553a36CeF67' },
};

const messageOf = (fn: () => unknown): string => {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error('expected a ConfigError');
};

describe('chain registry configuration', () => {
  it('accepts a production-shaped chain and applies the defaults', () => {
    const [chain] = parseChainRegistry([mainnet]);
    expect(chain).toMatchObject({
      id: 1,
      multicall3: MULTICALL3_ADDRESS,
      maxCallsPerMulticall: DEFAULT_MAX_CALLS_PER_MULTICALL,
      priceMaxAgeSeconds: DEFAULT_PRICE_MAX_AGE_SECONDS,
      tokens: [{ symbol: 'USDC', decimals: 6 }],
    });
  });

  it('rejects unchecksummed and malformed addresses, naming the checksummed form', () => {
    const lower = mainnet.tokens![0]!.address.toLowerCase();
    const message = messageOf(() =>
      parseChainRegistry([{ ...mainnet, nativePriceFeed: '0x123', tokens: [{ ...mainnet.tokens![0]!, address: lower }] }], 'CHAINS'),
    );
    expect(message).toContain('CHAINS: invalid chain registry');
    expect(message).toContain('[0].nativePriceFeed (chain 1): not a 20-byte hex address');
    expect(message).toContain(
      `[0].tokens[0].address (chain 1): address must be EIP-55 checksummed: "${lower}" (use "0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48")`,
    );
  });

  it('rejects duplicate chain ids, bad URLs, duplicate tokens and an empty registry', () => {
    const message = messageOf(() =>
      parseChainRegistry([
        mainnet,
        { ...mainnet, rpcUrl: 'ftp://x' },
        { ...mainnet, id: 8453, tokens: [mainnet.tokens![0]!, { ...mainnet.tokens![0]!, symbol: 'usdc' }] },
      ]),
    );
    expect(message).toContain('[1].id (chain 1): duplicate chain id 1 (also [0])');
    expect(message).toContain('[1].rpcUrl (chain 1): must be an http(s):// or ws(s):// URL');
    expect(message).toContain('[2].tokens[1].symbol (chain 8453): duplicate token symbol (also tokens.0)');
    expect(message).toContain('[2].tokens[1].address (chain 8453): duplicate token address (also tokens.0)');
    expect(messageOf(() => parseChainRegistry([]))).toContain('at least one chain');
    expect(parseChainRegistry([{ ...mainnet, rpcUrl: 'wss://eth.example.org' }])[0]!.rpcUrl).toBe('wss://eth.example.org');
  });

  it('loads from CHAINS or CHAINS_FILE, and says what is wrong with either', () => {
    expect(loadChainRegistry({ CHAINS: JSON.stringify([mainnet]) })[0]!.name).toBe('Ethereum');
    const dir = mkdtempSync(join(tmpdir(), 'chains-'));
    const file = join(dir, 'chains.json');
    writeFileSync(file, JSON.stringify([mainnet]));
    expect(loadChainRegistry({ CHAINS_FILE: file })[0]!.id).toBe(1);

    expect(messageOf(() => loadChainRegistry({}))).toMatch(/no chains configured: set CHAINS .* or CHAINS_FILE/);
    expect(messageOf(() => loadChainRegistry({ CHAINS: '[]', CHAINS_FILE: file }))).toMatch(/both set/);
    expect(messageOf(() => loadChainRegistry({ CHAINS: '[{' }))).toMatch(/^CHAINS: not valid JSON/);
    expect(messageOf(() => loadChainRegistry({ CHAINS_FILE: join(dir, 'missing.json') }))).toMatch(
      /CHAINS_FILE: cannot read .*missing.json \(ENOENT\)/,
    );
    writeFileSync(file, JSON.stringify([{ ...mainnet, id: 0 }]));
    expect(messageOf(() => loadChainRegistry({ CHAINS_FILE: file }))).toMatch(
      /CHAINS_FILE .*chains.json: invalid chain registry\n {2}\[0\]\.id/,
    );
  });

  it("builds the registry from the devnet's state file shape", () => {
    const feed = '0x5FbDB2315678afecb367f032d93F642f64180aa3';
    const token = '0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512';
    const pool = '0x9fE46736679d2D9a65F0992F2272dE9f3c7fa6e0';
    const resolver = '0xCf7Ed3AccA5a467e9e704C703E8D87F634fB0Fc9';
    const controller = '0xDc64a140Aa3E981100a9becA4E685f962f0cF6C9';
    const registry = registryFromDevnetState(
      {
        chains: [
          { id: 1, name: 'Ethereum', rpcUrl: 'http://127.0.0.1:8545' },
          { id: 84532, name: 'Base Sepolia', rpcUrl: 'http://127.0.0.1:8547' },
        ],
        contracts: {
          '1': {
            multicall3: MULTICALL3_ADDRESS,
            nativePriceFeed: feed,
            tokens: { DAI: { address: token, symbol: 'DAI', name: 'Dai Stablecoin', decimals: 18, priceFeed: feed } },
            lendingPool: { address: pool },
            ens: { registry: pool, universalResolver: resolver, registrarController: controller },
          },
          '84532': { nativePriceFeed: feed, tokens: {} },
        },
      },
      { priceMaxAgeSeconds: 10 * 365 * 86_400 },
    );
    expect(registry.map((c) => c.id)).toEqual([1, 84532]);
    expect(registry[0]).toMatchObject({
      nativeSymbol: 'ETH',
      tokens: [{ symbol: 'DAI', address: token, decimals: 18, priceFeed: feed }],
      lendingPools: [{ name: 'Ethereum lending pool', address: pool }],
      ens: { registry: pool, universalResolver: resolver, registrarController: controller },
      priceMaxAgeSeconds: 10 * 365 * 86_400,
    });
    expect(registry[1]).toMatchObject({ lendingPools: [], multicall3: MULTICALL3_ADDRESS });
    expect(registry[1]!.ens).toBeUndefined();
    expect(() => registryFromDevnetState({ chains: [{ id: 5, name: 'x', rpcUrl: 'http://a' }], contracts: {} })).toThrow(
      'no contracts for chain 5',
    );
    // the flat shape (viem's contract names), the registrar controller beside them
    const flat = registryFromDevnetState({
      chains: [{ id: 1, name: 'Ethereum', rpcUrl: 'http://127.0.0.1:8545' }],
      contracts: {
        '1': { nativePriceFeed: feed, tokens: {}, ensRegistry: pool, ensUniversalResolver: resolver, ensRegistrarController: controller },
      },
    });
    expect(flat[0]!.ens).toEqual({ registry: pool, universalResolver: resolver, registrarController: controller });
  });
});
