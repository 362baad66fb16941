import type { z } from 'zod';
import type { Price } from './pricing';
import type { SubjectDef } from './subject-def';

/**
 * What one HTTP operation is, written in one place (its entry in `operations/<area>.ts`): its
 * route, its HTTP inputs and the request fields they fill, its price, its OpenAPI summary, and the
 * NATS subject behind it. Each operation is served twice: under `/api/v2/` by the production
 * service and under `/api/v2/sandbox/` by the sandbox, whose subject is derived from the
 * production one (docs/ADDING-AN-OPERATION.md walks through adding one).
 */
export type HttpMethod = 'GET' | 'POST';
export type Variant = 'production' | 'sandbox';
export type Tag = 'Scores' | 'Reports' | 'Identity';

export interface QueryParam {
  readonly name: string;
  /** The request field it fills. */
  readonly field: string;
  /**
   * `address_list`: comma-separated addresses or names, the parameter possibly repeated (the
   * list a per-address price counts); `flag`: true or false (1 or 0), absent is false;
   * `integer`: a whole number in decimal digits, absent leaves the request schema's default.
   */
  readonly kind: 'address_list' | 'flag' | 'integer';
  readonly required: boolean;
  readonly description: string;
}

/** The subject a service behind the gateway answers; its request is an object of the HTTP inputs' fields. */
export type ProductionSubject = SubjectDef<z.ZodObject, z.ZodType, 'scoring' | 'reports' | 'identity'>;

/**
 * Where the sandbox's subject differs from the production one. By default it takes the same
 * request schema and error codes (the same validation in both variants, ARCHITECTURE 3) and the
 * same reply schema, with the sandbox's own timeouts.
 */
export interface SandboxDifference {
  readonly reply?: z.ZodType;
  readonly description?: string;
}

/** An entry as written. */
export interface OperationDef {
  readonly method: HttpMethod;
  /** Path after `/api/v2` (or `/api/v2/sandbox`), OpenAPI style: `/score/address/{address}`. Each parameter fills the request field of its name. */
  readonly path: string;
  readonly tag: Tag;
  readonly summary: string;
  /** CU per production request (docs/API.md §5); the sandbox is free. */
  readonly price: Price;
  readonly query?: readonly QueryParam[];
  /** The JSON body of a POST: its fields join the request, or it goes whole under `bodyField`. */
  readonly body?: z.ZodObject;
  readonly bodyField?: string;
  readonly production: ProductionSubject;
  readonly sandbox?: SandboxDifference;
}

/** An entry as the gateway, the OpenAPI document and the subject table read it. */
export interface HttpOperation {
  readonly method: HttpMethod;
  readonly path: string;
  readonly tag: Tag;
  readonly summary: string;
  readonly price: Price;
  readonly query: readonly QueryParam[];
  readonly body?: z.ZodObject;
  readonly bodyField?: string;
  readonly subjects: { readonly [V in Variant]: string };
  readonly definitions: { readonly [V in Variant]: SubjectDef };
}

type SandboxName<N extends string> = N extends `credit.${infer Rest}` ? `credit.sandbox.${Rest}` : never;

type SandboxSubject<O extends OperationDef> = SubjectDef<
  O['production']['request'],
  O extends { readonly sandbox: { readonly reply: infer R extends z.ZodType } } ? R : O['production']['reply'],
  'sandbox'
>;

/** An entry built from its definition, keeping the literal types the handler tables are typed from. */
export type Operation<O extends OperationDef> = Omit<O, 'production' | 'sandbox' | 'query'> & {
  readonly query: O extends { readonly query: infer Q extends readonly QueryParam[] } ? Q : readonly [];
  readonly subjects: { readonly production: O['production']['subject']; readonly sandbox: SandboxName<O['production']['subject']> };
  readonly definitions: {
    readonly production: SubjectDef<O['production']['request'], O['production']['reply'], O['production']['service']>;
    readonly sandbox: SandboxSubject<O>;
  };
};

/** The sandbox answers from memory: 3 s at most (ARCHITECTURE 11), asked again after 1 s. */
const SANDBOX_TIMEOUT_MS = 3_000;
const SANDBOX_ATTEMPT_TIMEOUT_MS = 1_000;

/** Builds an operation's entry, its sandbox subject derived from the production one. */
export function operation<const O extends OperationDef>(definition: O): Operation<O> {
  const { production, sandbox, query = [], ...http } = definition;
  const mirror: SubjectDef = {
    subject: production.subject.replace(/^credit\./, 'credit.sandbox.'),
    service: 'sandbox',
    request: production.request,
    ...(production.requestErrors === undefined ? {} : { requestErrors: production.requestErrors }),
    reply: sandbox?.reply ?? production.reply,
    timeoutMs: SANDBOX_TIMEOUT_MS,
    attemptTimeoutMs: SANDBOX_ATTEMPT_TIMEOUT_MS,
    description: sandbox?.description ?? `Sandbox mirror of ${production.subject}.`,
  };
  const built: HttpOperation = {
    ...http,
    query,
    subjects: { production: production.subject, sandbox: mirror.subject },
    definitions: { production, sandbox: mirror },
  };
  return built as unknown as Operation<O>;
}

export const ADDRESS_LIST: QueryParam = {
  name: 'address',
  field: 'addresses',
  kind: 'address_list',
  required: true,
  description: 'Comma-separated addresses or name-service names',
};

export const INCLUDE_FACTORS: QueryParam = {
  name: 'include_factors',
  field: 'include_factors',
  kind: 'flag',
  required: false,
  description: 'Add the model factors (Borrowing History, Wallet Composition, …) to each score',
};

export const HISTORY_DAYS: QueryParam = {
  name: 'days',
  field: 'days',
  kind: 'integer',
  required: false,
  description: 'UTC days of history, 1 to 365 (default 90)',
};

/** A path's parameters in order: `/report/address/{address}/chain/{chain_id}` → address, chain_id. */
export function pathParamsOf(path: string): string[] {
  return [...path.matchAll(/\{([a-z_]+)\}/g)].map(([, name]) => name!);
}

/** The request fields an operation's HTTP request fills: path parameters, query parameters, then the body. */
export function requestFieldsOf(op: HttpOperation): string[] {
  const body = op.body === undefined ? [] : op.bodyField !== undefined ? [op.bodyField] : Object.keys(op.body.shape);
  return [...pathParamsOf(op.path), ...op.query.map((q) => q.field), ...body];
}
