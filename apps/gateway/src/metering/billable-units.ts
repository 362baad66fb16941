import { classifyAddress } from '@credit/address/address-input';
import { HTTP_OPERATIONS, type OperationId } from '@credit/contracts/http-operations';
import { costOf, type Price } from '@credit/contracts/pricing';
import { MAX_BATCH_ADDRESSES } from '@credit/contracts/schemas/score';
import type { ReplyOf } from '@credit/contracts/subjects';

/** The operations priced per address. */
type PerAddressOperation = {
  [K in OperationId]: (typeof HTTP_OPERATIONS)[K]['price'] extends { kind: 'per_address' } ? K : never;
}[OperationId];

type ProductionReply<K extends OperationId> = ReplyOf<(typeof HTTP_OPERATIONS)[K]['subjects']['production']>;

/**
 * Where each per-address operation's reply says which addresses it analysed. An operation priced
 * per address without an entry here fails to compile.
 */
const ANALYSED: { [K in PerAddressOperation]: (reply: ProductionReply<K>) => readonly string[] } = {
  scoreBatch: (reply) => reply.scores.map((score) => score.address),
  reportAggregate: (reply) => reply.report.address,
};

/**
 * How many addresses a per-address price counts before the request runs: the distinct addresses
 * and names in the list that can be valid (at most the list bound), reserved up front.
 */
export function addressesRequested(inputs: readonly string[]): number {
  const distinct = new Set<string>();
  for (const raw of inputs) {
    const input = classifyAddress(raw);
    if (input.kind === 'hex') distinct.add(input.address);
    else if (input.kind === 'name') distinct.add(input.name);
  }
  return Math.min(distinct.size, MAX_BATCH_ADDRESSES);
}

/** CU to reserve for a request of this price naming these addresses. */
export function reserveFor(price: Price, addresses: readonly string[]): number {
  return costOf(price, price.kind === 'per_address' ? addressesRequested(addresses) : 1);
}

/**
 * CU a successful reply is charged: a fixed price as reserved, a per-address one by the distinct
 * addresses the reply analysed, never more than reserved.
 */
export function servedFor(id: OperationId, price: Price, reply: unknown, reserved: number): number {
  if (price.kind === 'fixed' || !(id in ANALYSED)) return reserved;
  const analysed = (ANALYSED[id as PerAddressOperation] as (reply: unknown) => readonly string[])(reply);
  return Math.min(costOf(price, new Set(analysed).size), reserved);
}
