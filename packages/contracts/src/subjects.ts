import type { z } from 'zod';
import { ADDRESS_LIST_ERRORS, ENHANCED_REPORT_ERRORS, ENHANCED_SCORE_ERRORS, type RequestErrorMap } from './request-errors';
import {
  PaymentReleaseReply,
  PaymentReleaseRequest,
  PaymentSettleReply,
  PaymentSettleRequest,
  PaymentVerifyReply,
  PaymentVerifyRequest,
} from './schemas/payment';
import { IdentityAttestations, IdentityManyReply, IdentityManyRequest } from './schemas/identity';
import { ChainPortfolio, PortfolioByChain, PortfolioTotal } from './schemas/portfolio';
import {
  AddressRequest,
  AggregateReportRequest,
  AggregatedCrossChainReport,
  AggregatedReport,
  ChainReportRequest,
  CrossChainReport,
  CrossChainSummaryReport,
  EnhancedCrossChainReport,
  EnhancedReportRequest,
  Report,
  SummaryReport,
} from './schemas/report';
import { SandboxReport } from './schemas/sandbox-report';
import {
  AggregateScoreRequest,
  AggregatedScoreResult,
  BatchScoreRequest,
  BatchScoreResult,
  EnhancedScoreRequest,
  ScoreAddressRequest,
  ScoreResult,
} from './schemas/score';

/** The queue group each service subscribes in; replicas of one service share its load. */
export type ServiceName = 'scoring' | 'reports' | 'identity' | 'sandbox' | 'payments';

export interface SubjectDef<Req extends z.ZodType = z.ZodType, Rep extends z.ZodType = z.ZodType, Svc extends ServiceName = ServiceName> {
  readonly subject: string;
  /** Kept as its literal type: a service's handler table is typed from it. */
  readonly service: Svc;
  readonly request: Req;
  readonly reply: Rep;
  /** How long a caller waits for the reply before giving up (504 at the gateway). */
  readonly timeoutMs: number;
  /**
   * How long one attempt waits before the client asks again, on an idempotent subject (a read:
   * asking twice changes nothing). A replica killed with the request in hand never answers; the
   * next attempt reaches another replica, or the restarted one, within `timeoutMs`, and a late
   * reply to an earlier attempt still counts. Omitted on a subject that must not run twice: it is
   * sent once and waits the whole `timeoutMs`.
   */
  readonly attemptTimeoutMs?: number;
  /** Which request failures get which error code; unlisted fields are `invalid_parameter`. */
  readonly requestErrors?: RequestErrorMap;
  /** A subject with no HTTP route of its own: services call it among themselves, or the gateway on the way to one. */
  readonly internal?: true;
  readonly description: string;
}

function def<Req extends z.ZodType, Rep extends z.ZodType, Svc extends ServiceName>(
  d: SubjectDef<Req, Rep, Svc>,
): SubjectDef<Req, Rep, Svc> {
  return d;
}

const SANDBOX_TIMEOUT_MS = 3_000;
const SANDBOX_ATTEMPT_TIMEOUT_MS = 1_000;

/**
 * Every request/reply subject of the platform. Names are dotted and versioned
 * (`credit.<area>.<operation>.v<N>`); a rename is a new version, never an edit.
 * This object is the public interface for internal callers (docs/SUBJECTS.md is generated from it).
 */
export const SUBJECTS = {
  // ── production: scoring ────────────────────────────────────────────────────────────────
  'credit.score.address.v1': def({
    subject: 'credit.score.address.v1',
    service: 'scoring',
    request: ScoreAddressRequest,
    reply: ScoreResult,
    timeoutMs: 15_000,
    attemptTimeoutMs: 5_000,
    description: 'Score one address or name (docs/API.md §4.1 GET score/address).',
  }),
  'credit.score.aggregate.v1': def({
    subject: 'credit.score.aggregate.v1',
    service: 'scoring',
    request: AggregateScoreRequest,
    requestErrors: ADDRESS_LIST_ERRORS,
    reply: AggregatedScoreResult,
    timeoutMs: 30_000,
    attemptTimeoutMs: 10_000,
    description: 'Mean score of the valid addresses of a list (docs/API.md §4.1 GET score/).',
  }),
  'credit.score.batch.v1': def({
    subject: 'credit.score.batch.v1',
    service: 'scoring',
    request: BatchScoreRequest,
    requestErrors: ADDRESS_LIST_ERRORS,
    reply: BatchScoreResult,
    timeoutMs: 30_000,
    attemptTimeoutMs: 10_000,
    description: 'One score per valid address, at most 100 (docs/API.md §4.1 GET score/batch/).',
  }),
  'credit.score.enhanced.v1': def({
    subject: 'credit.score.enhanced.v1',
    service: 'scoring',
    request: EnhancedScoreRequest,
    requestErrors: ENHANCED_SCORE_ERRORS,
    reply: ScoreResult,
    timeoutMs: 15_000,
    attemptTimeoutMs: 5_000,
    description: 'Score boosted by off-chain assets (docs/API.md §4.1 POST score/address).',
  }),
  // ── production: reports ────────────────────────────────────────────────────────────────
  'credit.report.full.v1': def({
    subject: 'credit.report.full.v1',
    service: 'reports',
    request: AddressRequest,
    reply: CrossChainReport,
    timeoutMs: 30_000,
    attemptTimeoutMs: 10_000,
    description: 'Full cross-chain report (docs/API.md §4.2 GET report/address).',
  }),
  'credit.report.enhanced.v1': def({
    subject: 'credit.report.enhanced.v1',
    service: 'reports',
    request: EnhancedReportRequest,
    requestErrors: ENHANCED_REPORT_ERRORS,
    reply: EnhancedCrossChainReport,
    timeoutMs: 30_000,
    attemptTimeoutMs: 10_000,
    description: 'Report merged with off-chain figures; never cached (docs/API.md §4.2 POST report/address).',
  }),
  'credit.report.aggregate.v1': def({
    subject: 'credit.report.aggregate.v1',
    service: 'reports',
    request: AggregateReportRequest,
    requestErrors: ADDRESS_LIST_ERRORS,
    reply: AggregatedCrossChainReport,
    timeoutMs: 60_000,
    attemptTimeoutMs: 20_000,
    description: 'Report summed over several addresses (docs/API.md §4.2 GET report/).',
  }),
  'credit.report.summary.v1': def({
    subject: 'credit.report.summary.v1',
    service: 'reports',
    request: AddressRequest,
    reply: CrossChainSummaryReport,
    timeoutMs: 20_000,
    attemptTimeoutMs: 7_000,
    description: 'Lightweight summary report, no per-chain details (docs/API.md §4.2).',
  }),
  'credit.report.chain.v1': def({
    subject: 'credit.report.chain.v1',
    service: 'reports',
    request: ChainReportRequest,
    reply: CrossChainReport,
    timeoutMs: 20_000,
    attemptTimeoutMs: 7_000,
    description: 'Report for one chain (docs/API.md §4.2 GET report/address/{a}/chain/{id}).',
  }),
  'credit.report.total-usd.v1': def({
    subject: 'credit.report.total-usd.v1',
    service: 'reports',
    request: AddressRequest,
    reply: PortfolioByChain,
    timeoutMs: 15_000,
    attemptTimeoutMs: 5_000,
    description: 'Portfolio value and its composition by chain (docs/API.md §4.2 /total/usd).',
  }),
  'credit.report.total-usd-aggregate.v1': def({
    subject: 'credit.report.total-usd-aggregate.v1',
    service: 'reports',
    request: AddressRequest,
    reply: PortfolioTotal,
    timeoutMs: 15_000,
    attemptTimeoutMs: 5_000,
    description: 'Total portfolio value across chains (docs/API.md §4.2 /total/usd/aggregate).',
  }),
  'credit.report.chain-total-usd.v1': def({
    subject: 'credit.report.chain-total-usd.v1',
    service: 'reports',
    request: ChainReportRequest,
    reply: ChainPortfolio,
    timeoutMs: 15_000,
    attemptTimeoutMs: 5_000,
    description: 'Portfolio value on one chain (docs/API.md §2.7 single-chain form).',
  }),
  // ── production: identity ───────────────────────────────────────────────────────────────
  'credit.identity.attestations.v1': def({
    subject: 'credit.identity.attestations.v1',
    service: 'identity',
    request: AddressRequest,
    reply: IdentityAttestations,
    timeoutMs: 15_000,
    attemptTimeoutMs: 5_000,
    description: 'Identity attestations of an address (docs/API.md §4.3).',
  }),
  'credit.identity.attestations-many.v1': def({
    subject: 'credit.identity.attestations-many.v1',
    service: 'identity',
    request: IdentityManyRequest,
    reply: IdentityManyReply,
    timeoutMs: 15_000,
    attemptTimeoutMs: 5_000,
    internal: true,
    description:
      'Identity attestations of up to 100 addresses in one request (internal: every wallet reading of scoring and reports asks it; name-service reads batched in one multicall).',
  }),
  // ── payments: x402 (internal; the gateway asks them on the way to a paid request) ─────────────
  'credit.payments.verify.v1': def({
    subject: 'credit.payments.verify.v1',
    service: 'payments',
    request: PaymentVerifyRequest,
    reply: PaymentVerifyReply,
    timeoutMs: 15_000,
    internal: true,
    description:
      'Verifies an x402 payment against its requirement (signature, amount, recipient, token, time window, balance) and reserves its nonce: once per payment, ever.',
  }),
  'credit.payments.settle.v1': def({
    subject: 'credit.payments.settle.v1',
    service: 'payments',
    request: PaymentSettleRequest,
    reply: PaymentSettleReply,
    timeoutMs: 60_000,
    attemptTimeoutMs: 20_000,
    internal: true,
    description:
      'Settles a verified payment on chain (one transaction at a time per signer, through a durable queue); idempotent by payment id.',
  }),
  'credit.payments.release.v1': def({
    subject: 'credit.payments.release.v1',
    service: 'payments',
    request: PaymentReleaseRequest,
    reply: PaymentReleaseReply,
    timeoutMs: 5_000,
    attemptTimeoutMs: 2_000,
    internal: true,
    description: 'Marks a verified payment failed without settling it: the request it paid for was not served (4xx, 5xx).',
  }),
  // ── sandbox: deterministic mock data, no I/O (docs/API.md §4.5) ─────────────────────────────────
  'credit.sandbox.score.address.v1': def({
    subject: 'credit.sandbox.score.address.v1',
    service: 'sandbox',
    request: ScoreAddressRequest,
    reply: ScoreResult,
    timeoutMs: SANDBOX_TIMEOUT_MS,
    attemptTimeoutMs: SANDBOX_ATTEMPT_TIMEOUT_MS,
    description: 'Sandbox mirror of credit.score.address.v1.',
  }),
  'credit.sandbox.score.aggregate.v1': def({
    subject: 'credit.sandbox.score.aggregate.v1',
    service: 'sandbox',
    request: AggregateScoreRequest,
    requestErrors: ADDRESS_LIST_ERRORS,
    reply: AggregatedScoreResult,
    timeoutMs: SANDBOX_TIMEOUT_MS,
    attemptTimeoutMs: SANDBOX_ATTEMPT_TIMEOUT_MS,
    description: 'Sandbox mirror of credit.score.aggregate.v1.',
  }),
  'credit.sandbox.score.batch.v1': def({
    subject: 'credit.sandbox.score.batch.v1',
    service: 'sandbox',
    request: BatchScoreRequest,
    requestErrors: ADDRESS_LIST_ERRORS,
    reply: BatchScoreResult,
    timeoutMs: SANDBOX_TIMEOUT_MS,
    attemptTimeoutMs: SANDBOX_ATTEMPT_TIMEOUT_MS,
    description: 'Sandbox mirror of credit.score.batch.v1.',
  }),
  'credit.sandbox.score.enhanced.v1': def({
    subject: 'credit.sandbox.score.enhanced.v1',
    service: 'sandbox',
    request: EnhancedScoreRequest,
    requestErrors: ENHANCED_SCORE_ERRORS,
    reply: ScoreResult,
    timeoutMs: SANDBOX_TIMEOUT_MS,
    attemptTimeoutMs: SANDBOX_ATTEMPT_TIMEOUT_MS,
    description: 'Sandbox mirror of credit.score.enhanced.v1.',
  }),
  'credit.sandbox.report.full.v1': def({
    subject: 'credit.sandbox.report.full.v1',
    service: 'sandbox',
    request: AddressRequest,
    reply: SandboxReport,
    timeoutMs: SANDBOX_TIMEOUT_MS,
    attemptTimeoutMs: SANDBOX_ATTEMPT_TIMEOUT_MS,
    description: 'Flat sandbox report (docs/API.md §2.8).',
  }),
  'credit.sandbox.report.enhanced.v1': def({
    subject: 'credit.sandbox.report.enhanced.v1',
    service: 'sandbox',
    request: EnhancedReportRequest,
    requestErrors: ENHANCED_REPORT_ERRORS,
    reply: Report,
    timeoutMs: SANDBOX_TIMEOUT_MS,
    attemptTimeoutMs: SANDBOX_ATTEMPT_TIMEOUT_MS,
    description: 'Sandbox mirror of credit.report.enhanced.v1 (chains is empty).',
  }),
  'credit.sandbox.report.aggregate.v1': def({
    subject: 'credit.sandbox.report.aggregate.v1',
    service: 'sandbox',
    request: AggregateReportRequest,
    requestErrors: ADDRESS_LIST_ERRORS,
    reply: AggregatedReport,
    timeoutMs: SANDBOX_TIMEOUT_MS,
    attemptTimeoutMs: SANDBOX_ATTEMPT_TIMEOUT_MS,
    description: 'Sandbox mirror of credit.report.aggregate.v1.',
  }),
  'credit.sandbox.report.summary.v1': def({
    subject: 'credit.sandbox.report.summary.v1',
    service: 'sandbox',
    request: AddressRequest,
    reply: SummaryReport,
    timeoutMs: SANDBOX_TIMEOUT_MS,
    attemptTimeoutMs: SANDBOX_ATTEMPT_TIMEOUT_MS,
    description: 'Sandbox summary report, ISO timestamps (docs/API.md §4.5).',
  }),
  'credit.sandbox.report.chain.v1': def({
    subject: 'credit.sandbox.report.chain.v1',
    service: 'sandbox',
    request: ChainReportRequest,
    reply: Report,
    timeoutMs: SANDBOX_TIMEOUT_MS,
    attemptTimeoutMs: SANDBOX_ATTEMPT_TIMEOUT_MS,
    description: 'Sandbox mirror of credit.report.chain.v1.',
  }),
  'credit.sandbox.report.total-usd.v1': def({
    subject: 'credit.sandbox.report.total-usd.v1',
    service: 'sandbox',
    request: AddressRequest,
    reply: PortfolioByChain,
    timeoutMs: SANDBOX_TIMEOUT_MS,
    attemptTimeoutMs: SANDBOX_ATTEMPT_TIMEOUT_MS,
    description: 'Sandbox all-chains portfolio value (docs/API.md §2.7) with its composition by chain.',
  }),
  'credit.sandbox.report.total-usd-aggregate.v1': def({
    subject: 'credit.sandbox.report.total-usd-aggregate.v1',
    service: 'sandbox',
    request: AddressRequest,
    reply: PortfolioTotal,
    timeoutMs: SANDBOX_TIMEOUT_MS,
    attemptTimeoutMs: SANDBOX_ATTEMPT_TIMEOUT_MS,
    description: 'Sandbox mirror of credit.report.total-usd-aggregate.v1.',
  }),
  'credit.sandbox.report.chain-total-usd.v1': def({
    subject: 'credit.sandbox.report.chain-total-usd.v1',
    service: 'sandbox',
    request: ChainReportRequest,
    reply: ChainPortfolio,
    timeoutMs: SANDBOX_TIMEOUT_MS,
    attemptTimeoutMs: SANDBOX_ATTEMPT_TIMEOUT_MS,
    description: 'Sandbox single-chain portfolio value (docs/API.md §2.7).',
  }),
  'credit.sandbox.identity.attestations.v1': def({
    subject: 'credit.sandbox.identity.attestations.v1',
    service: 'sandbox',
    request: AddressRequest,
    reply: IdentityAttestations,
    timeoutMs: SANDBOX_TIMEOUT_MS,
    attemptTimeoutMs: SANDBOX_ATTEMPT_TIMEOUT_MS,
    description: 'Sandbox mirror of credit.identity.attestations.v1.',
  }),
} as const;

export type Subjects = typeof SUBJECTS;
export type SubjectName = keyof Subjects;
export type RequestOf<S extends SubjectName> = z.input<Subjects[S]['request']>;
export type ParsedRequestOf<S extends SubjectName> = z.output<Subjects[S]['request']>;
export type ReplyOf<S extends SubjectName> = z.output<Subjects[S]['reply']>;
/** The subjects one service answers (its queue group's), as a union of literals. */
export type SubjectOf<Svc extends ServiceName> = { [S in SubjectName]: Subjects[S]['service'] extends Svc ? S : never }[SubjectName];

export const SUBJECT_NAMES = Object.keys(SUBJECTS) as SubjectName[];

export function subjectsOf<Svc extends ServiceName>(service: Svc): SubjectOf<Svc>[] {
  return SUBJECT_NAMES.filter((name): name is SubjectOf<Svc> => SUBJECTS[name].service === service);
}

/** A subject asking twice changes nothing (a read: it has an `attemptTimeoutMs`). */
export function isIdempotent(subject: SubjectName): boolean {
  return (SUBJECTS[subject] as SubjectDef).attemptTimeoutMs !== undefined;
}
