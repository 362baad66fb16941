import type { FastifyRequest } from 'fastify';
import { HTTP_OPERATIONS, OPERATION_IDS, type HttpOperation, type OperationId } from '@credit/contracts/http-operations';
import { pathParamsOf } from '@credit/contracts/operation-def';
import type { RequestOf } from '@credit/contracts/subjects';
import { DomainError } from '@credit/contracts/errors';
import { splitAddressList } from '@credit/address/address-input';

type Params = Record<string, string | undefined>;
type Query = Record<string, string | string[] | undefined>;

type RequestFor<K extends OperationId> = RequestOf<(typeof HTTP_OPERATIONS)[K]['subjects']['production']>;

/** Each operation path's parameters, read once (a regex over the path per request is measurable). */
const PATH_PARAMS = new Map<string, readonly string[]>(
  OPERATION_IDS.map((id) => [HTTP_OPERATIONS[id].path, pathParamsOf(HTTP_OPERATIONS[id].path)]),
);

/**
 * HTTP → subject request, as each operation's definition says: every path parameter fills the
 * field of its name (`chain_id` as a positive integer), every query parameter its `field`, and the
 * body goes under `bodyField` or adds its fields. Shape checks (bounds, non-negative numbers, the
 * `name` field) are the subject schemas' job, at both ends of the hop; here only strings become
 * the types the schemas expect. A contracts test holds each operation's inputs to its request
 * schema's fields.
 */
export function httpInput(op: HttpOperation, req: FastifyRequest): Record<string, unknown> {
  const request: Record<string, unknown> = {};
  for (const name of PATH_PARAMS.get(op.path) ?? pathParamsOf(op.path))
    request[name] = name === 'chain_id' ? chainId(req) : param(req, name);
  for (const q of op.query) {
    if (q.kind === 'flag') request[q.field] = flag(req, q.name);
    else if (q.kind === 'address_list') request[q.field] = splitAddressList(query(req, q.name));
    else {
      const value = integer(req, q.name);
      if (value !== undefined) request[q.field] = value;
    }
  }
  if (op.body === undefined) return request;
  const value = body(req);
  if (op.bodyField !== undefined) return { ...request, [op.bodyField]: value };
  // Only the fields the body schema names, and only those given: an absent figure stays absent.
  for (const field of Object.keys(op.body.shape)) if (value[field] !== undefined) request[field] = value[field];
  return request;
}

/** Each operation's request from its HTTP request. */
export const HTTP_INPUT = Object.fromEntries(
  OPERATION_IDS.map((id) => [id, (req: FastifyRequest) => httpInput(HTTP_OPERATIONS[id], req)]),
) as { [K in OperationId]: (req: FastifyRequest) => RequestFor<K> };

/** The address lists of the operations that take one (what a per-address price counts). */
export const HTTP_ADDRESSES: Partial<Record<OperationId, (req: FastifyRequest) => string[]>> = Object.fromEntries(
  OPERATION_IDS.flatMap((id) => {
    const list = HTTP_OPERATIONS[id].query.find((q) => q.kind === 'address_list');
    return list === undefined ? [] : [[id, (req: FastifyRequest) => splitAddressList(query(req, list.name))]];
  }),
);

function param(req: FastifyRequest, name: string): string {
  return (req.params as Params)[name] ?? '';
}

/** `?address=a,b&address=c` and `?address=a,b,c` mean the same list. */
function query(req: FastifyRequest, name: string): string | undefined {
  const value = (req.query as Query | undefined)?.[name];
  return Array.isArray(value) ? value.join(',') : value;
}

function flag(req: FastifyRequest, name: string): boolean {
  const value = query(req, name);
  if (value === undefined || value === '' || value === 'false' || value === '0') return false;
  if (value === 'true' || value === '1') return true;
  throw new DomainError('invalid_parameter', `${name} must be true or false`);
}

/** Absent: undefined (the schema's default applies); digits: the number, bounded by the schema; anything else: 400. */
function integer(req: FastifyRequest, name: string): number | undefined {
  const value = query(req, name);
  if (value === undefined || value === '') return undefined;
  if (!/^[0-9]{1,9}$/.test(value)) throw new DomainError('invalid_parameter', `${name} must be a whole number`);
  return Number(value);
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
