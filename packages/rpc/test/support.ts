import { Module, type Type } from '@nestjs/common';
import { subjectsOf } from '@credit/contracts/subjects';
import { handlerTableProvider, type HandlerTable } from '../src/handler-table';
import { randomBytes } from 'node:crypto';
import type { ScoreResult } from '@credit/contracts/schemas/score';

/** Tiny local helpers (this package does not depend on @credit/testing). */

export const NATS_URL = process.env['NATS_URL'] ?? 'nats://127.0.0.1:4222';

/** A subject prefix of its own, so parallel suites never answer each other. */
export function uniquePrefix(label = 't'): string {
  return `${label}${randomBytes(5).toString('hex')}`;
}

export const A = '0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045';

export function validScore(address: string = A, score = 742): ScoreResult {
  return {
    address,
    score,
    decile: 8,
    range: 'good',
    model_version: 'andromeda_1.0',
    timestamp: '2026-01-02T03:04:05.000Z',
  };
}

export { codeOf, domainErrorOf } from '@credit/testing/domain-errors';

const encoder = new TextEncoder();
const decoder = new TextDecoder();
export const encode = (value: unknown): Uint8Array => encoder.encode(JSON.stringify(value));
export const decode = (data: Uint8Array): unknown => JSON.parse(decoder.decode(data));

/** A promise with its resolver outside, to wait for "the responder has received it". */
export function deferred<T>(): { promise: Promise<T>; resolve(value: T): void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

/** The deps token of the test services (they need none). */
export const NO_DEPS = Symbol('NoDeps');

/**
 * A complete sandbox handler table for a test service: the handlers under test, and every other
 * sandbox subject answering `internal` (a test that reaches one is wrong).
 */
export function sandboxTable(handlers: Partial<HandlerTable<'sandbox'>>): HandlerTable<'sandbox'> {
  const unused = () => Promise.reject(new Error('not under test'));
  return Object.fromEntries(subjectsOf('sandbox').map((s) => [s, handlers[s] ?? unused])) as unknown as HandlerTable<'sandbox'>;
}

/** A Nest module serving `handlers` as the sandbox service. */
export function sandboxModule(handlers: () => Partial<HandlerTable<'sandbox'>>): Type<unknown> {
  @Module({
    providers: [{ provide: NO_DEPS, useValue: {} }, handlerTableProvider('sandbox', NO_DEPS, () => sandboxTable(handlers()))],
  })
  class TestSandboxModule {}
  return TestSandboxModule;
}
