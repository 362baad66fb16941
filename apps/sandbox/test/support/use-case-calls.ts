import { DomainError, type ErrorCode } from '@credit/contracts/errors';
import type { RequestOf, SubjectName } from '@credit/contracts/subjects';
import { parseReply, parseRequest } from '@credit/contracts/validate';

/** What the sandbox's use-case specs share: a pinned clock, the addresses they ask about, and the subject's schemas at both ends. */
export const NOW = new Date('2026-01-15T12:00:00.000Z');
export const A = '0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045';
export const B = '0xAb5801a7D398351b8bE11C439e05C5B3259aeC9B';
export const NAME = 'vitalik.eth';
export const INVALID = '0x123';

/** The request as the service receives it: parsed by the subject's schema (defaults applied). */
export function req<S extends SubjectName>(subject: S, request: RequestOf<S>) {
  return parseRequest(subject, request);
}

/** The reply passes the subject's reply schema (what the handler table checks before it leaves). */
export function valid<S extends SubjectName>(subject: S, reply: unknown) {
  return parseReply(subject, reply);
}

/** The code of the domain error `fn` throws; undefined when it throws none. */
export function codeOf(fn: () => unknown): ErrorCode | undefined {
  try {
    fn();
  } catch (error) {
    if (error instanceof DomainError) return error.code;
    throw error;
  }
  return undefined;
}

export const cents = (usd: number) => Math.round(usd * 100);
