import type { z } from 'zod';
import { HTTP_OPERATIONS, operationPath, operationPrice, type OperationId, type Variant } from './http-operations';
import type { HttpMethod, HttpOperation } from './operation-def';
import { CU_USD, type Price } from './pricing';
import { MAX_BATCH_ADDRESSES } from './schemas/score';

/**
 * The operations as agents and the TypeScript client call them: one MCP tool (and one client
 * method) per operation, named as agents know them from the closest peer. The arguments of a call
 * are the production subject's request, the same object the gateway builds from the HTTP request
 * and sends over NATS, so the tool's input schema, the client's input type and the REST route's
 * validation are one schema. The guidance is written for a model: what the tool answers and when
 * another one fits better; the price is added from the operation's entry.
 */
export interface AgentTool {
  /** The MCP tool's name. */
  readonly tool: string;
  /** The TypeScript client's method. */
  readonly method: string;
  readonly title: string;
  readonly guidance: string;
}

export const AGENT_TOOLS = {
  scoreAddress: {
    tool: 'get_credit_score',
    method: 'getCreditScore',
    title: 'Credit score of a wallet',
    guidance:
      'The credit score of one wallet, given as a hex address or an ENS name, with its decile and range label; ' +
      'include_factors adds the model factors, the one costing the score most first. The cheapest way to ' +
      'judge one wallet. For several wallets prefer get_credit_scores_batch; with off-chain assets, get_enhanced_score.',
  },
  scoreAggregate: {
    tool: 'get_aggregate_score',
    method: 'getAggregateScore',
    title: 'Mean score of several wallets',
    guidance:
      'One score for a group of wallets (a person or entity with several addresses): the rounded mean of the valid ' +
      "addresses' scores, with the decile and range of the mean; invalid or inactive addresses are skipped. For one " +
      'score per address use get_credit_scores_batch.',
  },
  scoreBatch: {
    tool: 'get_credit_scores_batch',
    method: 'getCreditScoresBatch',
    title: 'Scores of up to 100 wallets',
    guidance:
      `One score per wallet for up to ${MAX_BATCH_ADDRESSES} addresses or names, in request order; invalid, unknown and ` +
      'inactive addresses are left out and not charged. Prefer it to many get_credit_score calls.',
  },
  scoreEnhanced: {
    tool: 'get_enhanced_score',
    method: 'getEnhancedScore',
    title: 'Score boosted by off-chain assets',
    guidance:
      "A wallet's score boosted by off-chain assets the caller vouches for (total_asset_usd), by the capped boost of the " +
      'model card. Use it only when such figures are known; otherwise get_credit_score.',
  },
  scoreHistory: {
    tool: 'get_score_history',
    method: 'getScoreHistory',
    title: 'Daily score history of a wallet',
    guidance:
      "How a wallet's score got where it is: one score per UTC day for the last `days` days (1 to 365, default 90), " +
      'oldest first, rebuilt from the indexed chain history as of each day; days before the wallet first acted are left ' +
      'out, and the last point is the score now. For the score alone use get_credit_score.',
  },
  reportFull: {
    tool: 'get_comprehensive_report',
    method: 'getComprehensiveReport',
    title: 'Full cross-chain credit report',
    guidance:
      'The full credit report of a wallet: USD assets, collateral and debt, transaction and transfer counts, first and last ' +
      'transaction, identity attestations, and a breakdown per chain. The most complete and most expensive read; for the ' +
      'headline figures only, get_summary_report; for one chain, get_chain_report.',
  },
  reportEnhanced: {
    tool: 'get_enhanced_report',
    method: 'getEnhancedReport',
    title: 'Report merged with off-chain figures',
    guidance:
      "A wallet's report with off-chain figures added (source: a name and the figures, e.g. total_asset_usd, " +
      'total_debt_usd): the summary holds on-chain plus supplied figures, `additional` echoes the source. Never cached. ' +
      'Without off-chain figures prefer get_summary_report or get_comprehensive_report.',
  },
  reportAggregate: {
    tool: 'get_aggregate_report',
    method: 'getAggregateReport',
    title: 'Report summed over several wallets',
    guidance:
      'One report over several wallets of one owner: amounts and counts summed, attestations merged, per-chain figures ' +
      'merged; invalid, repeated and inactive addresses are skipped and not charged.',
  },
  reportSummary: {
    tool: 'get_summary_report',
    method: 'getSummaryReport',
    title: 'Summary report of a wallet',
    guidance:
      "A wallet's report without the per-chain breakdown: totals, counts, first and last transaction, attestations. " +
      'Prefer it to get_comprehensive_report unless the chains matter.',
  },
  reportChain: {
    tool: 'get_chain_report',
    method: 'getChainReport',
    title: 'Report of a wallet on one chain',
    guidance:
      "A wallet's report restricted to one chain (chain_id, an EVM chain id): its summary, transactions " +
      'and chain item. A chain the service does not read is a not-found error.',
  },
  reportTotalUsd: {
    tool: 'get_portfolio_composition',
    method: 'getPortfolioComposition',
    title: 'Portfolio value by chain',
    guidance:
      "A wallet's total asset value in USD with its composition by chain. For the total alone prefer get_portfolio_value; " +
      'for one chain, get_chain_portfolio_value.',
  },
  reportTotalUsdAggregate: {
    tool: 'get_portfolio_value',
    method: 'getPortfolioValue',
    title: 'Total portfolio value',
    guidance: "A wallet's total asset value in USD across every chain read, nothing else: the cheapest money figure.",
  },
  reportChainTotalUsd: {
    tool: 'get_chain_portfolio_value',
    method: 'getChainPortfolioValue',
    title: 'Portfolio value on one chain',
    guidance: "A wallet's asset value in USD on one chain (chain_id).",
  },
  identityAttestations: {
    tool: 'get_identity_attestations',
    method: 'getIdentityAttestations',
    title: 'Identity attestations of a wallet',
    guidance:
      'Who a wallet is: its ENS names (primary name, owned names, avatar), passport score, attendance tokens (POAPs) and ' +
      'social handles; a source that is not configured is left out. Reports already count these; ask this for the details.',
  },
} as const satisfies Record<OperationId, AgentTool>;

/** The production request an operation takes: the tool's arguments, the client method's input. */
export type OperationRequest<K extends OperationId> = z.input<(typeof HTTP_OPERATIONS)[K]['definitions']['production']['request']>;

/** What an operation answers in a variant: the REST body, the tool's structured content. */
export type OperationReply<K extends OperationId, V extends Variant = 'production'> = z.output<
  (typeof HTTP_OPERATIONS)[K]['definitions'][V]['reply']
>;

/** A price as a sentence's end: "1 CU", "7 CU per address analysed". */
export function priceText(price: Price): string {
  return price.kind === 'fixed' ? `${price.cu} CU` : `${price.cu} CU per address analysed`;
}

/** The tool's description: its guidance and what it costs in the variant. */
export function toolDescription(id: OperationId, variant: Variant): string {
  const cost =
    variant === 'sandbox'
      ? 'Free: sandbox, deterministic mock data.'
      : `Costs ${priceText(operationPrice(id, variant))} (1 CU = ${CU_USD} USD), charged only for an answer.`;
  return `${AGENT_TOOLS[id].guidance} ${cost}`;
}

/** An operation's HTTP request, built from its subject's request: the inverse of the gateway's HTTP input mapping. */
export interface HttpCall {
  readonly method: HttpMethod;
  /** Path and query string. */
  readonly url: string;
  readonly body?: unknown;
}

/**
 * The REST call that carries `request` (path parameters, query parameters and body, as the
 * operation's entry declares them). Values are not checked here: the route validates them.
 */
export function httpCallOf(id: OperationId, variant: Variant, request: Record<string, unknown>): HttpCall {
  const op: HttpOperation = HTTP_OPERATIONS[id];
  const path = operationPath(id, variant).replace(/\{([a-z_]+)\}/g, (_, name: string) => encodeURIComponent(String(request[name] ?? '')));
  const query = new URLSearchParams();
  for (const q of op.query) {
    const value = request[q.field];
    if (value === undefined) continue;
    query.set(q.name, Array.isArray(value) ? value.join(',') : String(value));
  }
  const search = query.toString() === '' ? '' : `?${query.toString()}`;
  if (op.body === undefined) return { method: op.method, url: `${path}${search}` };
  const body =
    op.bodyField !== undefined
      ? request[op.bodyField]
      : Object.fromEntries(Object.keys(op.body.shape).flatMap((field) => (request[field] === undefined ? [] : [[field, request[field]]])));
  return { method: op.method, url: `${path}${search}`, body: body ?? {} };
}
