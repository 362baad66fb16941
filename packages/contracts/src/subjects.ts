import type { z } from 'zod';
import { HTTP_OPERATIONS, OPERATION_IDS, type OperationId, type Variant } from './http-operations';
import { def, type ServiceName, type SubjectDef } from './subject-def';
import { IdentityManyReply, IdentityManyRequest } from './schemas/identity';
import { ScoreWatchReply, ScoreWatchRequest } from './schemas/score-watch';
import {
  PaymentReleaseReply,
  PaymentReleaseRequest,
  PaymentSettleReply,
  PaymentSettleRequest,
  PaymentVerifyReply,
  PaymentVerifyRequest,
} from './schemas/payment';

export type { ServiceName, SubjectDef } from './subject-def';

/** The subjects with no HTTP route of their own; every other subject is an operation's (`operations/`). */
const INTERNAL_SUBJECTS = {
  // ── identity: asked by scoring and reports ─────────────────────────────────────────────
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
  // ── scoring: asked by the webhooks' score-change detector and the gateway's webhook creation ──
  'credit.score.watch.v1': def({
    subject: 'credit.score.watch.v1',
    service: 'scoring',
    request: ScoreWatchRequest,
    reply: ScoreWatchReply,
    timeoutMs: 30_000,
    attemptTimeoutMs: 10_000,
    internal: true,
    description:
      'Fresh scores with their factors of up to 100 watched addresses (internal: score-change webhooks; the wallets are read again, and the new readings and verdicts replace the cached ones).',
  }),
  // ── payments: x402 (the gateway asks them on the way to a paid request) ────────────────
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
} as const;

type Operations = typeof HTTP_OPERATIONS;
type OperationSubjects<V extends Variant> = {
  [K in OperationId as Operations[K]['subjects'][V]]: Operations[K]['definitions'][V];
};
type Flat<T> = { [K in keyof T]: T[K] };

export type Subjects = Flat<OperationSubjects<'production'> & typeof INTERNAL_SUBJECTS & OperationSubjects<'sandbox'>>;

function operationSubjects(variant: Variant): Record<string, SubjectDef> {
  return Object.fromEntries(OPERATION_IDS.map((id) => [HTTP_OPERATIONS[id].subjects[variant], HTTP_OPERATIONS[id].definitions[variant]]));
}

/**
 * Every request/reply subject of the platform: the operations' production subjects, the internal
 * ones, then the operations' sandbox mirrors (deterministic mock data, no I/O, docs/API.md §4.5).
 * Names are dotted and versioned (`credit.<area>.<operation>.v<N>`); a rename is a new version,
 * never an edit. This object is the public interface for internal callers (docs/SUBJECTS.md is
 * generated from it).
 */
export const SUBJECTS = {
  ...operationSubjects('production'),
  ...INTERNAL_SUBJECTS,
  ...operationSubjects('sandbox'),
} as Subjects;

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
