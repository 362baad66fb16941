import type { FastifyRequest } from 'fastify';
import type { OperationId } from '@credit/contracts/http-operations';
import type { HTTP_OPERATIONS } from '@credit/contracts/http-operations';
import type { RequestOf } from '@credit/contracts/subjects';
import { DomainError } from '@credit/contracts/errors';
import { splitAddressList } from '@credit/address/address-input';

type Params = Record<string, string | undefined>;
type Query = Record<string, string | string[] | undefined>;

type RequestFor<K extends OperationId> = RequestOf<(typeof HTTP_OPERATIONS)[K]['subjects']['production']>;

/**
 * HTTP → subject request, one line per operation. Shape checks (bounds, non-negative numbers,
 * the `name` field) are the subject schemas' job, at both ends of the hop; here only strings
 * become the types the schemas expect.
 */
export const HTTP_INPUT: { [K in OperationId]: (req: FastifyRequest) => RequestFor<K> } = {
  scoreAddress: (req) => ({ address: param(req, 'address'), include_factors: flag(req, 'include_factors') }),
  scoreAggregate: (req) => ({ addresses: addressList(req) }),
  scoreBatch: (req) => ({ addresses: addressList(req), include_factors: flag(req, 'include_factors') }),
  scoreEnhanced: (req) => ({
    address: param(req, 'address'),
    include_factors: flag(req, 'include_factors'),
    ...pickAssets(body(req)),
  }),
  reportFull: (req) => ({ address: param(req, 'address') }),
  reportEnhanced: (req) => ({ address: param(req, 'address'), source: body(req) as RequestFor<'reportEnhanced'>['source'] }),
  reportAggregate: (req) => ({ addresses: addressList(req) }),
  reportSummary: (req) => ({ address: param(req, 'address') }),
  reportChain: (req) => ({ address: param(req, 'address'), chain_id: chainId(req) }),
  reportTotalUsd: (req) => ({ address: param(req, 'address') }),
  reportTotalUsdAggregate: (req) => ({ address: param(req, 'address') }),
  reportChainTotalUsd: (req) => ({ address: param(req, 'address'), chain_id: chainId(req) }),
  identityAttestations: (req) => ({ address: param(req, 'address') }),
};

/** The address lists of the operations that take one (what a per-address price counts). */
export const HTTP_ADDRESSES: Partial<Record<OperationId, (req: FastifyRequest) => string[]>> = {
  scoreAggregate: addressList,
  scoreBatch: addressList,
  reportAggregate: addressList,
};

function param(req: FastifyRequest, name: string): string {
  return (req.params as Params)[name] ?? '';
}

function query(req: FastifyRequest, name: string): string | undefined {
  const value = (req.query as Query | undefined)?.[name];
  return Array.isArray(value) ? value.join(',') : value;
}

/** `?address=a,b&address=c` and `?address=a,b,c` mean the same list. */
function addressList(req: FastifyRequest): string[] {
  return splitAddressList(query(req, 'address'));
}

function flag(req: FastifyRequest, name: string): boolean {
  const value = query(req, name);
  if (value === undefined || value === '' || value === 'false' || value === '0') return false;
  if (value === 'true' || value === '1') return true;
  throw new DomainError('invalid_parameter', `${name} must be true or false`);
}

function chainId(req: FastifyRequest): number {
  const raw = param(req, 'chain_id');
  const value = /^[0-9]{1,15}$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isSafeInteger(value) || value <= 0) {
    throw new DomainError('invalid_parameter', 'chain_id must be a positive integer');
  }
  return value;
}

/** A missing or non-object body reads as `{}`, so the schema names the missing field. */
function body(req: FastifyRequest): Record<string, unknown> {
  const value = req.body;
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

function pickAssets(value: Record<string, unknown>): { total_asset_usd?: number } {
  return value.total_asset_usd === undefined ? {} : { total_asset_usd: value.total_asset_usd as number };
}
