import { z } from 'zod';
import { UsageReport } from './user';

/**
 * The account dashboard's JSON endpoints (docs/API.md §4.6, docs/decisions/0006): signed in with
 * a session cookie, never with an API key. A key's value appears in one reply only, the creation's.
 */

/** The shortest password accepted (NIST SP 800-63B asks for at least 8; we ask for 12). */
export const PASSWORD_MIN_LENGTH = 12;
/** scrypt hashes any length, but a bound keeps a request from making it hash megabytes. */
export const PASSWORD_MAX_LENGTH = 256;

const Email = z
  .string()
  .trim()
  .max(254)
  .pipe(z.email({ message: 'must be an email address' }));

/**
 * Sign-up names the email only: the password is chosen by the mailbox's owner on the page the
 * mailed link opens (`VerifyEmailBody`), so whoever asks for the mail can never set it.
 */
export const SignUpBody = z.strictObject({ email: Email });
export type SignUpBody = z.infer<typeof SignUpBody>;

/** The messages below are the page's words too: a 400 names each bad field as `field: message` (issue 39). */
export const SignInBody = z.strictObject({
  email: z.string().trim().min(1, { message: 'enter your email' }).max(254),
  password: z.string().min(1, { message: 'enter your password' }).max(PASSWORD_MAX_LENGTH),
});
export type SignInBody = z.infer<typeof SignInBody>;

const NewPassword = z
  .string()
  .min(PASSWORD_MIN_LENGTH, { message: `must have at least ${PASSWORD_MIN_LENGTH} characters` })
  .max(PASSWORD_MAX_LENGTH, { message: `must have at most ${PASSWORD_MAX_LENGTH} characters` });

/** Following a sign-up link: its token and the password the mailbox's owner chooses on its page. */
export const VerifyEmailBody = z.strictObject({ token: z.string().min(1).max(200), password: NewPassword });
export type VerifyEmailBody = z.infer<typeof VerifyEmailBody>;

export const ForgotPasswordBody = z.strictObject({ email: z.string().trim().min(1, { message: 'enter your email' }).max(254) });
export type ForgotPasswordBody = z.infer<typeof ForgotPasswordBody>;

export const ResetPasswordBody = z.strictObject({ token: z.string().min(1).max(200), password: NewPassword });
export type ResetPasswordBody = z.infer<typeof ResetPasswordBody>;

export const CreateKeyBody = z.strictObject({
  name: z.string().trim().min(1, { message: 'enter a name' }).max(100, { message: 'must have at most 100 characters' }),
});
export type CreateKeyBody = z.infer<typeof CreateKeyBody>;

export const CsrfReply = z.object({ csrf_token: z.string() });

export const SignUpReply = z.object({ status: z.literal('verification_sent'), message: z.string() });
export type SignUpReply = z.infer<typeof SignUpReply>;

/** Active API keys the account held before this claim or reset: its owner is asked to review them. */
const KeysBefore = z.number().int().min(0);

export const VerifyEmailReply = z.object({ email: z.string(), is_verified: z.literal(true), keys_before: KeysBefore });
export type VerifyEmailReply = z.infer<typeof VerifyEmailReply>;

/** "Resend the verification email" (issue 39): a sign-up's mail asked again, the same answer for every email. */
export const ResendVerificationBody = z.strictObject({ email: Email });
export type ResendVerificationBody = z.infer<typeof ResendVerificationBody>;

export const ResendVerificationReply = SignUpReply;
export type ResendVerificationReply = z.infer<typeof ResendVerificationReply>;

export const ForgotPasswordReply = z.object({ status: z.literal('reset_sent'), message: z.string() });
export type ForgotPasswordReply = z.infer<typeof ForgotPasswordReply>;

export const ResetPasswordReply = z.object({ email: z.string(), keys_before: KeysBefore });
export type ResetPasswordReply = z.infer<typeof ResetPasswordReply>;

export const DashboardAccount = z.object({
  id: z.string(),
  email: z.string(),
  plan: z.enum(['free', 'pro', 'enterprise']),
  is_verified: z.boolean(),
});
export type DashboardAccount = z.infer<typeof DashboardAccount>;

/** Sign-in and `GET /dashboard/api/session`: who is signed in, and the token state changes carry. */
export const SessionReply = z.object({ account: DashboardAccount, csrf_token: z.string() });
export type SessionReply = z.infer<typeof SessionReply>;

/** A key as its owner sees it: never its value or its hash. */
export const KeyItem = z.object({
  key_id: z.string(),
  name: z.string(),
  /** The key's first characters, to tell keys apart. */
  start: z.string(),
  status: z.enum(['active', 'revoked']),
  created_at: z.string(),
  last_used_at: z.string().nullable(),
  revoked_at: z.string().nullable(),
});
export type KeyItem = z.infer<typeof KeyItem>;

export const KeysReply = z.object({ keys: z.array(KeyItem) });
export type KeysReply = z.infer<typeof KeysReply>;

/** The one reply that carries a key's value. */
export const CreatedKeyReply = KeyItem.extend({ key: z.string() });
export type CreatedKeyReply = z.infer<typeof CreatedKeyReply>;

/** What one request of an operation costs (docs/API.md §5), from its definition in `operations/`. */
export const OperationPrice = z.object({
  operation: z.string(),
  summary: z.string(),
  /** `fixed`: CU per request; `per_address`: CU per address the request names. */
  kind: z.enum(['fixed', 'per_address']),
  cu: z.number().int().nonnegative(),
});
export type OperationPrice = z.infer<typeof OperationPrice>;

/** An API rate limit as the `RateLimit-Policy` header states it: `q` requests per `w` seconds. */
const RateLimit = z.object({ requests: z.number().int().positive(), window_seconds: z.number().int().positive() });

/**
 * A plan as the metering applies it (issue 39's upgrade path): its monthly CU allowance (`PLANS` in
 * pricing.ts; null is unlimited, or an enterprise account's contracted allowance) and its API rate
 * limit (the gateway's `RATE_LIMIT_<PLAN>_PER_MIN`).
 */
export const PlanItem = z.object({
  name: z.enum(['free', 'pro', 'enterprise']),
  monthly_cu: z.number().int().nonnegative().nullable(),
  rate_limit: RateLimit,
});
export type PlanItem = z.infer<typeof PlanItem>;

/**
 * `GET /users/me/usage` plus the CU of each day of the period (UTC) and of each key, from the usage
 * ledger; the price of each operation, the plan's rate limit (the `RateLimit-Policy` header's
 * `q` requests per `w` seconds) and every plan's allowance and rate limit, so the page explains CU
 * and the other plans without a figure of its own (issue 39).
 */
export const DashboardUsageReply = UsageReport.extend({
  daily: z.array(
    z.object({
      /** `YYYY-MM-DD` (UTC) */
      date: z.string(),
      cu: z.number().int(),
      by_operation: z.record(z.string(), z.number().int()),
    }),
  ),
  /**
   * Per API key that made a production request in the period: its CU (charges less refunds) and
   * its requests by how they were answered (`2xx` served, `4xx` refused, `429` rate-limited or
   * over the allowance, `5xx` failed; counted by the gateway, written every few seconds). Keys by
   * CU, then by requests.
   */
  by_key: z.array(
    z.object({
      key_id: z.string(),
      name: z.string(),
      start: z.string(),
      cu: z.number().int(),
      requests: z.object({
        '2xx': z.number().int().nonnegative(),
        '4xx': z.number().int().nonnegative(),
        '429': z.number().int().nonnegative(),
        '5xx': z.number().int().nonnegative(),
      }),
    }),
  ),
  prices: z.array(OperationPrice),
  rate_limit: RateLimit,
  /** Every plan, in `PLANS`' order; the account's is `plan`. A plan is changed by the operator (the CLI's `accounts:set-plan`). */
  plans: z.array(PlanItem),
});
export type DashboardUsageReply = z.infer<typeof DashboardUsageReply>;
