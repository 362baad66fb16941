import { z } from 'zod';
import { ChainId, ChecksummedAddress, IsoTimestamp, NonNegativeNumber } from './common';

/** docs/API.md §2.7 all-chains form; `/total/usd` adds the per-chain composition. */
export const PortfolioTotal = z.object({
  address: ChecksummedAddress,
  total_asset_usd: NonNegativeNumber,
  timestamp: IsoTimestamp,
});
export type PortfolioTotal = z.infer<typeof PortfolioTotal>;

export const ChainPortfolio = z.object({
  address: ChecksummedAddress,
  chain_id: ChainId,
  chain_name: z.string(),
  total_asset_usd: NonNegativeNumber,
  timestamp: IsoTimestamp,
});
export type ChainPortfolio = z.infer<typeof ChainPortfolio>;

/** Portfolio composition by chain (docs/API.md §4.2 `/total/usd`): the 2.7 all-chains form plus chains. */
export const PortfolioByChain = PortfolioTotal.extend({
  chains: z.array(z.object({ chain_id: ChainId, chain_name: z.string(), total_asset_usd: NonNegativeNumber })),
});
export type PortfolioByChain = z.infer<typeof PortfolioByChain>;
