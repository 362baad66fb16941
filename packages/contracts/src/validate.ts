import type { z } from 'zod';
import { DomainError, type ErrorCode } from './errors';
import { codeOfIssue, type RequestErrorMap } from './request-errors';
import { SUBJECTS, type ParsedRequestOf, type ReplyOf, type SubjectName } from './subjects';

/**
 * Validates a request against its subject's schema. Both ends call this: the gateway before it
 * sends, the service when it receives, so an internal caller that skips the gateway gets the same
 * answers. The first issue decides the error code (by the subject's `requestErrors`), and so the
 * status and body shape.
 */
export function parseRequest<S extends SubjectName>(subject: S, payload: unknown): ParsedRequestOf<S> {
  const result = SUBJECTS[subject].request.safeParse(payload);
  if (result.success) return result.data as ParsedRequestOf<S>;
  throw requestError(result.error, SUBJECTS[subject].requestErrors);
}

/** Validates a reply; a reply that breaks its contract is a bug on the replying side. */
export function parseReply<S extends SubjectName>(subject: S, payload: unknown): ReplyOf<S> {
  const result = SUBJECTS[subject].reply.safeParse(payload);
  if (result.success) return result.data as ReplyOf<S>;
  const issue = result.error.issues[0];
  throw new DomainError('internal', `reply on ${subject} broke its contract at ${issue ? pathOf(issue) : '?'}: ${issue?.message ?? ''}`);
}

function requestError(error: z.ZodError, errors: RequestErrorMap | undefined): DomainError {
  const issue = error.issues[0];
  if (!issue) return new DomainError('invalid_parameter', 'invalid request');
  const [head, field] = issue.path;
  const code = codeOfIssue(errors, issue);
  const name = field === undefined ? String(head ?? 'request') : typeof field === 'number' ? `${String(head)}[${field}]` : String(field);
  return new DomainError(code, messageOf(code, name, issue));
}

function messageOf(code: ErrorCode, name: string, issue: z.core.$ZodIssue): string {
  switch (code) {
    case 'missing_source_name':
      return 'Additional data must provide a name field';
    case 'batch_too_large':
      return issue.message;
    case 'no_valid_address':
      return 'No valid address supplied';
    default:
      return `${name}: ${describe(issue)}`;
  }
}

function describe(issue: z.core.$ZodIssue): string {
  if (issue.code === 'too_small' && issue.origin === 'number') {
    const minimum = Number(issue.minimum);
    if (minimum === 0) return issue.inclusive ? 'must be a non-negative number' : 'must be a positive number';
    return `must be at least ${minimum}`;
  }
  if (issue.code === 'too_big' && issue.origin === 'number') return `must be at most ${Number(issue.maximum)}`;
  if (issue.code === 'invalid_type') return `expected ${issue.expected}`;
  return issue.message;
}

function pathOf(issue: z.core.$ZodIssue): string {
  return issue.path.map(String).join('.') || '(root)';
}
