import { z } from 'zod';
import { ChainId, ChecksummedAddress, IsoTimestamp, NonNegativeNumber } from './common';

/** docs/API.md §2.8: the flat sandbox report (GET form). */
export const SandboxReport = z.object({
  address: ChecksummedAddress,
  score: z.object({ value: z.number().int().min(300).max(1000), classification: z.string() }),
  assets: z.object({
    total_value_usd: NonNegativeNumber,
    tokens: z.array(
      z.object({
        symbol: z.string(),
        name: z.string(),
        balance: z.string(),
        value_usd: NonNegativeNumber,
        chain_id: ChainId,
      }),
    ),
    nfts: z.array(z.object({ name: z.string(), collection: z.string(), chain_id: ChainId })),
  }),
  defi: z.object({
    protocols: z.array(
      z.object({
        name: z.string(),
        supplied: NonNegativeNumber,
        borrowed: NonNegativeNumber,
        chain_id: ChainId,
      }),
    ),
    total_supplied: NonNegativeNumber,
    total_borrowed: NonNegativeNumber,
  }),
  activity: z.object({
    first_transaction: IsoTimestamp,
    total_transactions: z.number().int().nonnegative(),
    active_chains: z.array(ChainId),
  }),
  sandbox: z.literal(true),
  cached: z.boolean(),
  timestamp: IsoTimestamp,
});
export type SandboxReport = z.infer<typeof SandboxReport>;
