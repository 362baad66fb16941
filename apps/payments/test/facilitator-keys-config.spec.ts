import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError } from '@credit/config/load-config';
import { paymentsConfig } from '../src/config';

/**
 * The facilitator's signer keys, checked at boot (issue 37): X402_FACILITATOR_PRIVATE_KEYS
 * (comma-separated) or the one X402_FACILITATOR_PRIVATE_KEY; each a valid key, no two the same
 * (two queues on one key would clash on its nonces); a refusal names the key by position, never
 * by value.
 */
const KEYS = ['0x' + 'a1'.repeat(32), '0x' + '22'.repeat(32), '0x' + '33'.repeat(32)];
let dir: string;
let base: Record<string, string>;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'credit-payments-config-'));
  const networks = join(dir, 'x402-networks.json');
  const network = { network: 'eip155:84532', asset: '0x' + 'cd'.repeat(20), tokenName: 'USDC', tokenVersion: '2', decimals: 6 };
  writeFileSync(networks, JSON.stringify([{ ...network, rpcUrl: 'http://127.0.0.1:8545' }]));
  base = {
    NATS_URL: 'nats://127.0.0.1:4222',
    REDIS_URL: 'redis://127.0.0.1:6379',
    DATABASE_URL: 'postgresql://postgres@127.0.0.1:5432/credit',
    X402_PAY_TO: '0x' + 'ab'.repeat(20),
    X402_NETWORKS_FILE: networks,
  };
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

const keysOf = (env: Record<string, string>) => paymentsConfig({ ...base, ...env }).facilitatorKeys;

function refusal(env: Record<string, string>): string {
  try {
    paymentsConfig({ ...base, ...env });
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error('the configuration was accepted');
}

it('takes several comma-separated keys, spaces around them allowed', () => {
  expect(keysOf({ X402_FACILITATOR_PRIVATE_KEYS: ` ${KEYS[0]}, ${KEYS[1]} ,${KEYS[2]}` })).toEqual(KEYS);
});

it('takes the one X402_FACILITATOR_PRIVATE_KEY as before, and no key with an external facilitator', () => {
  expect(keysOf({ X402_FACILITATOR_PRIVATE_KEY: KEYS[0]! })).toEqual([KEYS[0]]);
  expect(keysOf({ X402_FACILITATOR_URL: 'https://facilitator.example' })).toEqual([]);
});

it.each([
  [
    'a key twice (its case changed)',
    `${KEYS[0]},${KEYS[1]},${KEYS[0]!.toUpperCase().replace('0X', '0x')}`,
    'key 3 of 3 repeats an earlier key',
  ],
  ['a key that is not 64 hex digits', `${KEYS[0]},${KEYS[1]!.slice(0, 40)}`, 'key 2 of 2 must be 0x and 64 hex digits'],
  ['zero, which is no secp256k1 key', `${KEYS[0]},0x${'0'.repeat(64)}`, 'key 2 of 2 is not a valid secp256k1 private key'],
  ['an empty entry', `${KEYS[0]},,${KEYS[1]}`, 'key 2 of 3 must be 0x and 64 hex digits'],
])('refuses %s, naming it by position and never printing a key', (_, keys, problem) => {
  const message = refusal({ X402_FACILITATOR_PRIVATE_KEYS: keys });
  expect(message).toContain(`X402_FACILITATOR_PRIVATE_KEYS: ${problem}`);
  for (const key of KEYS) expect(message.toLowerCase()).not.toContain(key.slice(2, 20));
});

it('refuses both variables at once, and neither without an external facilitator', () => {
  expect(refusal({ X402_FACILITATOR_PRIVATE_KEYS: KEYS[0]!, X402_FACILITATOR_PRIVATE_KEY: KEYS[1]! })).toContain('not both');
  expect(refusal({})).toContain('set X402_FACILITATOR_URL (an external facilitator) or X402_FACILITATOR_PRIVATE_KEYS');
});

it("takes a signer's settlements at once from 1 to 16 (8 when unset), and refuses more than a node keeps pending for one sender", () => {
  const inFlight = (value?: string) =>
    paymentsConfig({
      ...base,
      X402_FACILITATOR_PRIVATE_KEY: KEYS[0]!,
      ...(value !== undefined ? { X402_SETTLEMENTS_PER_SIGNER: value } : {}),
    }).X402_SETTLEMENTS_PER_SIGNER;
  expect([inFlight(), inFlight(''), inFlight('1'), inFlight('16')]).toEqual([8, 8, 1, 16]);
  for (const bad of ['17', '0', '-1', '2.5', 'many'])
    expect(refusal({ X402_FACILITATOR_PRIVATE_KEY: KEYS[0]!, X402_SETTLEMENTS_PER_SIGNER: bad })).toContain('X402_SETTLEMENTS_PER_SIGNER');
});
