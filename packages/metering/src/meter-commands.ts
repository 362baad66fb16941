import type { Redis } from 'ioredis';
import { ADMIT_SCRIPT, OUTBOX_CLAIM_SCRIPT, REFUND_SCRIPT, SEED_SCRIPT } from './meter-scripts';

/** The metering scripts as commands of a connection (defineMeterCommands). */
export interface MeterCommands {
  meterAdmit(...keysAndArgs: (string | number)[]): Promise<(number | string)[]>;
  meterRefund(counter: string, outbox: string, ...args: (string | number)[]): Promise<number>;
  meterSeed(counter: string, ...args: (string | number)[]): Promise<number>;
}

/** Registers the scripts on a connection (EVALSHA, loading them on first use). */
export function defineMeterCommands(redis: Redis): void {
  if ('meterAdmit' in redis) return;
  redis.defineCommand('meterAdmit', { lua: ADMIT_SCRIPT }); // numkeys first: a batch has 1 + 2 per item
  redis.defineCommand('meterRefund', { numberOfKeys: 2, lua: REFUND_SCRIPT });
  redis.defineCommand('meterSeed', { numberOfKeys: 1, lua: SEED_SCRIPT });
  redis.defineCommand('outboxClaim', { numberOfKeys: 1, lua: OUTBOX_CLAIM_SCRIPT }); // the LedgerPipeline's
}
