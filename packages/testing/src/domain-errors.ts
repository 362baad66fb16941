import { DomainError, type ErrorCode } from '@credit/contracts/errors';

/** The DomainError a promise rejects with; fails the test on success or on any other error. */
export async function domainErrorOf(promise: Promise<unknown>): Promise<DomainError> {
  let outcome: unknown;
  try {
    const value = await promise;
    outcome = new Error(`expected a DomainError, got a reply: ${JSON.stringify(value)}`);
  } catch (error) {
    if (error instanceof DomainError) return error;
    outcome = error;
  }
  throw outcome;
}

/** The code of the DomainError a promise rejects with (see `domainErrorOf`). */
export async function codeOf(promise: Promise<unknown>): Promise<ErrorCode> {
  return (await domainErrorOf(promise)).code;
}
