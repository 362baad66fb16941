import { z } from 'zod';
import {
  AddressInput,
  ChainId,
  ChecksummedAddress,
  CountInput,
  IsoTimestamp,
  NonNegativeInteger,
  NonNegativeNumber,
  UsdInput,
} from './common';
import { AggregateAddressList } from './score';

/** docs/API.md §2.3: timestamp is Unix seconds in production-style reports, ISO in the sandbox summary. */
export const TransactionRef = z.object({
  timestamp: z.union([z.number().int().nonnegative(), IsoTimestamp]),
  block_number: NonNegativeInteger,
  chain_id: ChainId,
});
export type TransactionRef = z.infer<typeof TransactionRef>;

export const UnixTransactionRef = TransactionRef.extend({
  timestamp: z.number().int().nonnegative(),
});
export type UnixTransactionRef = z.infer<typeof UnixTransactionRef>;

/** docs/API.md §2.4, lending counts included; which fields appear varies by endpoint. */
export const ReportSummary = z.object({
  total_asset_usd: NonNegativeNumber,
  total_collateral_usd: NonNegativeNumber,
  total_debt_usd: NonNegativeNumber,
  count_transactions: NonNegativeInteger,
  count_transfers: NonNegativeInteger,
  count_balances: NonNegativeInteger.optional(),
  count_identity_attestations: NonNegativeInteger,
  list_identity_attestations: z.array(z.string()).optional(),
  count_collateral_deposits: NonNegativeInteger.optional(),
  count_active_loans: NonNegativeInteger.optional(),
  count_liquidations: NonNegativeInteger.optional(),
  count_repayments: NonNegativeInteger.optional(),
});
export type ReportSummary = z.infer<typeof ReportSummary>;

/** docs/API.md §2.3: a chains[] item. */
export const ChainBreakdown = z.object({
  chain: z.object({
    id: ChainId,
    name: z.string(),
    has_past_activity: z.boolean(),
    current_balance_usd: NonNegativeNumber,
    transaction_count: NonNegativeInteger,
    balances: z.array(z.object({ symbol: z.string(), name: z.string(), usd_value: NonNegativeNumber })),
  }),
});
export type ChainBreakdown = z.infer<typeof ChainBreakdown>;

/** docs/API.md §2.5: the enhanced report's request body, echoed under report.additional.source.data. */
export const OffChainData = z.object({
  total_asset_usd: UsdInput.optional(),
  total_collateral_usd: UsdInput.optional(),
  total_debt_usd: UsdInput.optional(),
  count_transactions: CountInput.optional(),
  count_transfers: CountInput.optional(),
});
export type OffChainData = z.infer<typeof OffChainData>;

export const OffChainSource = OffChainData.extend({
  name: z.string().trim().min(1, 'additional data must provide a name field').max(200),
});
export type OffChainSource = z.infer<typeof OffChainSource>;

export const Additional = z.object({
  source: z.object({ name: z.string(), data: OffChainData }),
});

const ReportBody = z.object({
  address: ChecksummedAddress,
  timestamp: IsoTimestamp,
  first_transaction: TransactionRef.optional(),
  last_transaction: TransactionRef.optional(),
  summary: ReportSummary,
  additional: Additional.optional(),
  chains: z.array(ChainBreakdown),
});

/** docs/API.md §2.3: the report envelope. */
export const Report = z.object({ report: ReportBody });
export type Report = z.infer<typeof Report>;

/** docs/API.md §2.3 aggregated: address lists the addresses analysed successfully. */
export const AggregatedReport = z.object({
  report: ReportBody.extend({ address: z.array(ChecksummedAddress).min(1) }),
});
export type AggregatedReport = z.infer<typeof AggregatedReport>;

/** docs/API.md §4.5 sandbox summary: ISO timestamps, no per-chain details. */
export const SummaryReport = z.object({
  report: z.object({
    address: ChecksummedAddress,
    timestamp: IsoTimestamp,
    first_transaction: TransactionRef.optional(),
    last_transaction: TransactionRef.optional(),
    summary: ReportSummary,
  }),
});
export type SummaryReport = z.infer<typeof SummaryReport>;

/**
 * The production reports (docs/API.md §4.2), exactly: Unix-second transaction times, every §2.4
 * field present, the lending counts where the chains read have lending pools.
 */
export const CrossChainSummary = ReportSummary.extend({
  total_asset_usd: NonNegativeNumber.describe('USD value of the balances held, summed over chains'),
  total_collateral_usd: NonNegativeNumber.describe("USD value of the collateral in the chains' lending pools"),
  total_debt_usd: NonNegativeNumber.describe("USD value of the debt owed to the chains' lending pools"),
  count_transactions: NonNegativeInteger.describe('Transactions sent, from the indexed history'),
  count_transfers: NonNegativeInteger.describe('ERC-20 transfers in or out, from the indexed history'),
  count_balances: NonNegativeInteger.describe('Non-zero balances held (one per chain and asset)'),
  list_identity_attestations: z.array(z.string()),
  count_collateral_deposits: NonNegativeInteger.optional().describe('Supply events in the lending pools'),
  count_active_loans: NonNegativeInteger.optional().describe('Lending positions with debt now (one per chain and pool)'),
  count_liquidations: NonNegativeInteger.optional().describe('Liquidations of the address'),
  count_repayments: NonNegativeInteger.optional().describe('Repay events'),
});
export type CrossChainSummary = z.infer<typeof CrossChainSummary>;

const CrossChainReportBody = z.object({
  address: ChecksummedAddress,
  timestamp: IsoTimestamp.describe('When the figures were read (ISO 8601); a cached report keeps its reading time'),
  first_transaction: UnixTransactionRef.optional().describe('The earliest indexed transaction; absent without indexed history'),
  last_transaction: UnixTransactionRef.optional().describe('The latest indexed transaction; absent without indexed history'),
  summary: CrossChainSummary,
  chains: z.array(ChainBreakdown).describe('One item per chain the service reads'),
});

export const CrossChainReport = z.object({ report: CrossChainReportBody });
export type CrossChainReport = z.infer<typeof CrossChainReport>;

/** The enhanced report: on-chain plus supplied figures in `summary`, the source echoed, no chains. */
export const EnhancedCrossChainReport = z.object({
  report: CrossChainReportBody.extend({ additional: Additional, chains: z.array(ChainBreakdown).max(0) }),
});
export type EnhancedCrossChainReport = z.infer<typeof EnhancedCrossChainReport>;

/** The aggregated report: `address` lists the addresses analysed; chains merged per chain. */
export const AggregatedCrossChainReport = z.object({
  report: CrossChainReportBody.extend({ address: z.array(ChecksummedAddress).min(1) }),
});
export type AggregatedCrossChainReport = z.infer<typeof AggregatedCrossChainReport>;

/** The summary report: the full report without `chains`. */
export const CrossChainSummaryReport = z.object({ report: CrossChainReportBody.omit({ chains: true }) });
export type CrossChainSummaryReport = z.infer<typeof CrossChainSummaryReport>;

export const AddressRequest = z.object({ address: AddressInput });
export type AddressRequest = z.infer<typeof AddressRequest>;

export const ChainReportRequest = z.object({ address: AddressInput, chain_id: ChainId });
export type ChainReportRequest = z.infer<typeof ChainReportRequest>;

export const AggregateReportRequest = z.object({ addresses: AggregateAddressList });
export type AggregateReportRequest = z.infer<typeof AggregateReportRequest>;

export const EnhancedReportRequest = z.object({
  address: AddressInput,
  source: OffChainSource,
});
export type EnhancedReportRequest = z.infer<typeof EnhancedReportRequest>;
