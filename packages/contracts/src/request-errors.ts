import type { z } from 'zod';
import type { ErrorCode } from './errors';

/** What went wrong with a field, as zod reports it; `other` covers every remaining kind. */
export type IssueKind = 'invalid_type' | 'too_small' | 'too_big' | 'other';

/** The code of a failing field: one code, or one per kind of failure (unlisted kinds: the default). */
export type FieldRule = ErrorCode | Partial<Record<IssueKind, ErrorCode>>;

/**
 * How a subject's request failures become error codes, and so statuses and body shapes
 * (`ERROR_TABLE`). Keys are field paths (`addresses`, `source.name`), exact, or prefixes written
 * `source.*` for everything under a field; the longest matching key decides. A field no key
 * matches is `invalid_parameter`: a bad path or query parameter, `{detail}`. Declared by each
 * subject in its definition (`operations/<area>.ts`, or `subjects.ts` for an internal one), never
 * guessed from field names.
 */
export type RequestErrorMap = Readonly<Record<string, FieldRule>>;

/** An address list (aggregates, batches): too long is `batch_too_large`, empty is `no_valid_address`. */
export const ADDRESS_LIST_ERRORS: RequestErrorMap = {
  addresses: { too_big: 'batch_too_large', too_small: 'no_valid_address' },
};

/** The enhanced score's body: a bad figure is a bad body (`{error}`). */
export const ENHANCED_SCORE_ERRORS: RequestErrorMap = {
  total_asset_usd: 'invalid_body',
};

/** The enhanced report's body: a missing or empty source name has its own answer; the rest is a bad body. */
export const ENHANCED_REPORT_ERRORS: RequestErrorMap = {
  'source.name': { invalid_type: 'missing_source_name', too_small: 'missing_source_name', other: 'invalid_body' },
  source: 'invalid_body',
  'source.*': 'invalid_body',
};

export function codeOfIssue(map: RequestErrorMap | undefined, issue: z.core.$ZodIssue): ErrorCode {
  const path = issue.path.map(String).join('.');
  let best: { length: number; rule: FieldRule } | undefined;
  for (const [key, rule] of Object.entries(map ?? {})) {
    const prefix = key.endsWith('.*') ? key.slice(0, -1) : undefined;
    const hit = prefix === undefined ? path === key : path.startsWith(prefix);
    if (hit && (best === undefined || key.length > best.length)) best = { length: key.length, rule };
  }
  if (best === undefined) return 'invalid_parameter';
  if (typeof best.rule === 'string') return best.rule;
  const kind: IssueKind = issue.code === 'invalid_type' || issue.code === 'too_small' || issue.code === 'too_big' ? issue.code : 'other';
  return best.rule[kind] ?? best.rule.other ?? 'invalid_parameter';
}
