import { z } from 'zod';
import {
  HTTP_OPERATIONS,
  OPERATION_IDS,
  operationPath,
  operationPrice,
  type QueryParam,
  type Variant,
} from '@credit/contracts/http-operations';
import { ERROR_CODES, ERROR_TABLE, type ErrorShape } from '@credit/contracts/errors';
import { pathParamsOf } from '@credit/contracts/operation-def';
import { SUBJECTS } from '@credit/contracts/subjects';
import { UsageReport, UserProfile } from '@credit/contracts/schemas/user';
import { dashboardPaths } from './dashboard-paths';
import { webhookPaths } from './webhook-paths';

type Json = Record<string, unknown>;

const VARIANTS: Variant[] = ['production', 'sandbox'];

/**
 * OpenAPI 3.1, generated from the contracts: the HTTP operation table gives paths, parameters and
 * prices; each operation's subject gives the response schema (zod → JSON Schema 2020-12, which
 * OpenAPI 3.1 uses as is).
 */
export function buildOpenApiDocument(): Json {
  const paths: Record<string, Record<string, Json>> = {};
  for (const variant of VARIANTS) {
    for (const id of OPERATION_IDS) {
      const op = HTTP_OPERATIONS[id];
      const path = operationPath(id, variant);
      const subject = op.subjects[variant];
      const price = operationPrice(id, variant);
      const cost = price.kind === 'fixed' ? `${price.cu} CU` : `${price.cu} CU per address`;
      (paths[path] ??= {})[op.method.toLowerCase()] = {
        operationId: variant === 'sandbox' ? `sandbox_${id}` : id,
        tags: [variant === 'sandbox' ? 'Sandbox' : op.tag],
        summary: variant === 'sandbox' ? `${op.summary} (sandbox: deterministic mock data, free)` : op.summary,
        description:
          variant === 'production'
            ? `Cost: ${cost} (with x402: 0.01 USDC per CU, no account). NATS subject: \`${subject}\`.`
            : `Cost: ${cost}. NATS subject: \`${subject}\`.`,
        ...(variant === 'production' ? { security: [{ bearerAuth: [] }, { x402Payment: [] }, { x402PaymentV2: [] }] } : {}),
        'x-credit-units': price,
        'x-nats-subject': subject,
        parameters: [...pathParameters(path), ...op.query.map((q) => queryParameter(q, op.definitions.production.request))],
        ...('body' in op && op.body ? { requestBody: jsonBody(op.body, 'input') } : {}),
        responses: {
          '200': { description: 'Success', content: json(schemaOf(SUBJECTS[subject].reply, 'output')) },
          ...ERROR_RESPONSES,
        },
      };
    }
  }
  paths['/users/me'] = {
    get: {
      operationId: 'usersMe',
      tags: ['Account'],
      summary: 'The profile of the key in use (key test endpoint)',
      parameters: [],
      responses: {
        '200': { description: 'Success', content: json(schemaOf(UserProfile, 'output')) },
        ...ERROR_RESPONSES,
      },
    },
  };
  paths['/users/me/usage'] = {
    get: {
      operationId: 'usersMeUsage',
      tags: ['Account'],
      summary: "The account's CU this calendar month (UTC): plan, allowance, used, remaining, per operation",
      description: 'Cost: 0 CU. Outside the API rate limit, with a limit of its own.',
      parameters: [],
      responses: {
        '200': { description: 'Success', content: json(schemaOf(UsageReport, 'output')) },
        ...ERROR_RESPONSES,
      },
    },
  };

  Object.assign(paths, dashboardPaths({ json, schemaOf, errorResponses: ERROR_RESPONSES }));
  Object.assign(paths, webhookPaths({ json, schemaOf, errorResponses: ERROR_RESPONSES }));

  return {
    openapi: '3.1.0',
    info: {
      title: 'Credit Scoring API',
      version: '2.0.0',
      description:
        'On-chain credit scores (300–1000), credit reports and identity attestations. Authenticate with ' +
        '`Authorization: Bearer <API_KEY>`, or pay a production request in USDC with x402 (no account: send it without ' +
        '`Authorization`, answer the 402 with `X-PAYMENT` or `PAYMENT-SIGNATURE`). The `/api/v2/sandbox/` mirror answers ' +
        'deterministic mock data for free.',
    },
    servers: [{ url: '/' }],
    security: [{ bearerAuth: [] }],
    tags: [
      { name: 'Scores' },
      { name: 'Reports' },
      { name: 'Identity' },
      { name: 'Sandbox' },
      { name: 'Account' },
      { name: 'Webhooks' },
      { name: 'Dashboard' },
    ],
    paths,
    components: {
      securitySchemes: {
        bearerAuth: { type: 'http', scheme: 'bearer', description: 'API key: csk_…' },
        dashboardSession: {
          type: 'apiKey',
          in: 'cookie',
          name: 'credit_session',
          description: 'The dashboard session, set by sign-in (HttpOnly). State changes also send `X-CSRF-Token`.',
        },
        x402Payment: {
          type: 'apiKey',
          in: 'header',
          name: 'X-PAYMENT',
          description: 'x402 v1: a base64 payment payload answering the 402 challenge (docs/API.md §5)',
        },
        x402PaymentV2: {
          type: 'apiKey',
          in: 'header',
          name: 'PAYMENT-SIGNATURE',
          description: 'x402 v2: a base64 payment payload answering the PAYMENT-REQUIRED header',
        },
      },
      schemas: {
        ErrorDetail: { type: 'object', required: ['detail'], properties: { detail: { type: 'string' } } },
        ErrorText: { type: 'object', required: ['error'], properties: { error: { type: 'string' } } },
        ErrorWithStatus: {
          type: 'object',
          required: ['error', 'status_code'],
          properties: { error: { type: 'string' }, status_code: { type: 'integer' } },
        },
        ErrorDetailObject: {
          type: 'object',
          required: ['detail'],
          properties: {
            detail: {
              type: 'object',
              required: ['error', 'message'],
              properties: { error: { type: 'string' }, message: { type: 'string' } },
              additionalProperties: true,
            },
          },
        },
        PaymentChallenge: {
          type: 'object',
          required: ['error', 'message', 'credit_units', 'options', 'x402Version', 'accepts'],
          properties: {
            error: { type: 'string', const: 'authentication_required' },
            message: { type: 'string' },
            credit_units: { type: 'integer' },
            options: { type: 'array', items: { type: 'object', additionalProperties: true } },
            x402Version: { type: 'integer', const: 1 },
            accepts: { type: 'array', items: { type: 'object', additionalProperties: true } },
            reason: { type: 'string', description: 'Why a payment was refused' },
          },
          additionalProperties: true,
        },
      },
    },
  };
}

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

/** The schema of each body shape of the error table. */
const SHAPE_SCHEMAS: Record<ErrorShape, string> = {
  detail: 'ErrorDetail',
  error: 'ErrorText',
  error_status: 'ErrorWithStatus',
  detail_object: 'ErrorDetailObject',
  challenge: 'PaymentChallenge',
};

/**
 * Every error status the gateway can answer, generated from the one error table: per status the
 * codes that give it and their body shapes, so the document cannot miss a status or disagree
 * with what the gateway sends.
 */
const ERROR_RESPONSES: Record<string, Json> = Object.fromEntries(
  [...new Set(ERROR_CODES.map((code) => ERROR_TABLE[code].status))]
    .sort((a, b) => a - b)
    .map((status) => {
      const codes = ERROR_CODES.filter((code) => ERROR_TABLE[code].status === status);
      const shapes = [...new Set(codes.map((code) => SHAPE_SCHEMAS[ERROR_TABLE[code].shape]))];
      const schema = shapes.length === 1 ? ref(shapes[0]!) : { oneOf: shapes.map(ref) };
      return [String(status), { description: `Error codes: ${codes.map((c) => `\`${c}\``).join(', ')}`, content: json(schema) }];
    }),
);

function json(schema: unknown): Json {
  return { 'application/json': { schema } };
}

function jsonBody(schema: z.ZodType, io: 'input' | 'output'): Json {
  return { required: true, content: json(schemaOf(schema, io)) };
}

function schemaOf(schema: z.ZodType, io: 'input' | 'output'): Json {
  const out = z.toJSONSchema(schema, { target: 'draft-2020-12', io, unrepresentable: 'any' }) as Json;
  delete out.$schema;
  return out;
}

function pathParameters(path: string): Json[] {
  return pathParamsOf(path).map((name) => ({
    name,
    in: 'path',
    required: true,
    schema: name === 'chain_id' ? { type: 'integer', minimum: 1 } : { type: 'string' },
    description: name === 'chain_id' ? 'EVM chain id (1 is Ethereum mainnet)' : 'Hex address or name-service name',
  }));
}

/** An integer parameter takes its bounds and default from its request field (`days`: 1 to 365, 90). */
function queryParameter(q: QueryParam, request: z.ZodObject): Json {
  const schema = q.kind === 'integer' ? integerSchema(request.shape[q.field]) : { type: q.kind === 'flag' ? 'boolean' : 'string' };
  return { name: q.name, in: 'query', required: q.required, description: q.description, schema };
}

function integerSchema(field: z.ZodType | undefined): Json {
  if (field === undefined) return { type: 'integer' };
  const { minimum, maximum, default: fallback } = schemaOf(field, 'input');
  return {
    type: 'integer',
    ...(minimum === undefined ? {} : { minimum }),
    ...(maximum === undefined ? {} : { maximum }),
    ...(fallback === undefined ? {} : { default: fallback }),
  };
}
