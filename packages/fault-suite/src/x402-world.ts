import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseAbi } from 'viem';
import { createPrismaClient, type Db } from '@credit/db/prisma-client';
import { paymentChainClient } from '@credit/devnet/x402-payment';
import { devnetX402Env } from '@credit/x402/devnet-x402';
import { NATS_URL, REDIS_URL, startGatewayProcess, stopAllApps, type AppProcess } from './apps';
import { startScoringWorld, type ScoringWorld } from './scoring-world';

const ERC20 = parseAbi(['function balanceOf(address) view returns (uint256)']);

/**
 * The scoring world with x402 on its devnet's payment chain: the payments ledger, the devnet's x402
 * environment (`x402`, with the facilitator's four signer keys; `shared`, the same without them,
 * for the gateway), a paying gateway, and what the receiver holds.
 */
export interface X402World {
  world: ScoringWorld;
  db: Db;
  x402: Record<string, string>;
  shared: Record<string, string>;
  /** A gateway that takes payments; it waits 10 s at most on any subject. */
  startGateway(): Promise<AppProcess>;
  /** The USDC the receiver (payTo) holds. */
  received(): Promise<bigint>;
  /** Stops every app, then the world. */
  close(): Promise<void>;
}

export async function startX402World(name: string): Promise<X402World> {
  const world = await startScoringWorld({ natsUrl: NATS_URL, redisUrl: REDIS_URL });
  const db = createPrismaClient(world.database.url);
  const dir = mkdtempSync(join(tmpdir(), `credit-${name}-`));
  const p = world.devnet.state.payments;
  const x402 = devnetX402Env(p, join(dir, 'x402-networks.json'));
  const { X402_FACILITATOR_PRIVATE_KEYS: _signers, ...shared } = x402;
  return {
    world,
    db,
    x402,
    shared,
    startGateway: () =>
      startGatewayProcess({
        NATS_URL,
        NATS_SUBJECT_PREFIX: world.prefix,
        DATABASE_URL: world.database.url,
        RPC_TIMEOUT_MS: '10000',
        // These suites pay from one payer, the cast's, about 190 times in a minute on a fast host:
        // past the default per-payer limit (100 a minute). The limit itself is tested on its own
        // (security-suite x402-rate-limit, e2e x402); here a 429 would only hide what is measured.
        RATE_LIMIT_X402_PER_MIN: '100000',
        ...shared,
      }),
    received: () => paymentChainClient(p).readContract({ address: p.token, abi: ERC20, functionName: 'balanceOf', args: [p.payTo] }),
    async close() {
      await stopAllApps();
      await db.$disconnect();
      await world.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
