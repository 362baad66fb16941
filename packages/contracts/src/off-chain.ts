import type { OffChainData, OffChainSource, ReportSummary } from './schemas/report';
import { sumUsd } from './usd';

const OFF_CHAIN_FIELDS = [
  'total_asset_usd',
  'total_collateral_usd',
  'total_debt_usd',
  'count_transactions',
  'count_transfers',
] as const satisfies readonly (keyof OffChainData)[];

/** docs/API.md §2.5: the figures a caller supplied with its source, only those supplied (echoed as `additional.source.data`). */
export function suppliedFigures(source: OffChainSource): OffChainData {
  const data: OffChainData = {};
  for (const field of OFF_CHAIN_FIELDS) if (source[field] !== undefined) data[field] = source[field];
  return data;
}

/**
 * docs/API.md §4.2 enhanced report rule 2: the on-chain summary plus the supplied figures, money
 * summed in cents; every other field as it was. The production and the sandbox report both add this way.
 */
export function withOffChain<S extends ReportSummary>(onChain: S, data: OffChainData): S {
  return {
    ...onChain,
    total_asset_usd: sumUsd([onChain.total_asset_usd, data.total_asset_usd ?? 0]),
    total_collateral_usd: sumUsd([onChain.total_collateral_usd, data.total_collateral_usd ?? 0]),
    total_debt_usd: sumUsd([onChain.total_debt_usd, data.total_debt_usd ?? 0]),
    count_transactions: onChain.count_transactions + (data.count_transactions ?? 0),
    count_transfers: onChain.count_transfers + (data.count_transfers ?? 0),
  };
}
