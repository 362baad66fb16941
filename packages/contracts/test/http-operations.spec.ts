import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { z } from 'zod';
import {
  API_PREFIX,
  HTTP_OPERATIONS,
  OPERATION_IDS,
  SANDBOX_PREFIX,
  operationPath,
  operationPrice,
  type OperationId,
  type Variant,
} from '../src/http-operations';
import { pathParamsOf, requestFieldsOf } from '../src/operation-def';
import { costOf } from '../src/pricing';
import { SUBJECT_NAMES, SUBJECTS } from '../src/subjects';

/** The HTTP operation table against the subjects and docs/API.md §4 / §5. */
const VARIANTS: Variant[] = ['production', 'sandbox'];

/** The rows of docs/API.md §5's price table: [operation, CU]. */
const PRICE_ROWS: [string, string][] = (() => {
  const api = readFileSync(join(__dirname, '../../../docs/API.md'), 'utf8');
  const table = api.slice(api.indexOf('| Operation | CU |'));
  return table
    .slice(0, table.indexOf('\n\n'))
    .split('\n')
    .slice(2)
    .map((row) => row.split('|').map((cell) => cell.trim()))
    .map((cells) => [cells[1]!, cells[2]!]);
})();

const shapeOf = (schema: z.ZodType) => Object.keys((schema as z.ZodObject).shape);

describe('HTTP_OPERATIONS', () => {
  it('has operations', () => {
    expect(OPERATION_IDS.length).toBeGreaterThan(0);
    expect(OPERATION_IDS).toEqual(Object.keys(HTTP_OPERATIONS));
  });

  it.each(OPERATION_IDS)('%s: both subjects exist; the sandbox one is served by the sandbox only', (id) => {
    const { production, sandbox } = HTTP_OPERATIONS[id].subjects;
    expect(SUBJECT_NAMES).toContain(production);
    expect(SUBJECT_NAMES).toContain(sandbox);
    expect(SUBJECTS[sandbox].service).toBe('sandbox');
    expect(SUBJECTS[production].service).not.toBe('sandbox');
    // Same validation in both variants (ARCHITECTURE 3).
    expect(SUBJECTS[sandbox].request).toBe(SUBJECTS[production].request);
  });

  it('covers every subject but the internal ones exactly once per variant', () => {
    const prod = OPERATION_IDS.map((id) => HTTP_OPERATIONS[id].subjects.production);
    const sand = OPERATION_IDS.map((id) => HTTP_OPERATIONS[id].subjects.sandbox);
    expect(new Set(prod).size).toBe(prod.length);
    expect(new Set(sand).size).toBe(sand.length);
    expect([...prod, ...sand].sort()).toEqual(SUBJECT_NAMES.filter((s) => !SUBJECTS[s].internal).sort());
  });

  it('paths are unique per method and variant', () => {
    const keys = OPERATION_IDS.flatMap((id) => VARIANTS.map((v) => `${HTTP_OPERATIONS[id].method} ${operationPath(id, v)}`));
    expect(keys).toHaveLength(OPERATION_IDS.length * 2);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('only POST operations carry a body schema', () => {
    for (const id of OPERATION_IDS) {
      const op = HTTP_OPERATIONS[id] as { method: string; body?: unknown };
      expect([id, op.body !== undefined]).toEqual([id, op.method === 'POST']);
    }
  });

  it('serves every production route of docs/API.md §4.1-§4.3 and every sandbox route of docs/API.md §4.5', () => {
    const served = (variant: Variant) => new Set(OPERATION_IDS.map((id) => `${HTTP_OPERATIONS[id].method} ${operationPath(id, variant)}`));
    const production = [
      'GET /api/v2/score/address/{address}',
      'GET /api/v2/score/',
      'GET /api/v2/score/batch/',
      'POST /api/v2/score/address/{address}',
      'GET /api/v2/score/address/{address}/history',
      'GET /api/v2/report/address/{address}',
      'POST /api/v2/report/address/{address}',
      'GET /api/v2/report/',
      'GET /api/v2/report/address/{address}/summary',
      'GET /api/v2/report/address/{address}/chain/{chain_id}',
      'GET /api/v2/report/address/{address}/total/usd',
      'GET /api/v2/report/address/{address}/total/usd/aggregate',
      'GET /api/v2/identity/address/{address}/attestations',
    ];
    const sandbox = [
      'GET /api/v2/sandbox/score/address/{address}',
      'GET /api/v2/sandbox/score/batch/',
      'GET /api/v2/sandbox/score/',
      'GET /api/v2/sandbox/score/address/{address}/history',
      'GET /api/v2/sandbox/report/address/{address}',
      'POST /api/v2/sandbox/report/address/{address}',
      'GET /api/v2/sandbox/report/address/{address}/summary',
      'GET /api/v2/sandbox/report/address/{address}/total/usd',
      'GET /api/v2/sandbox/report/address/{address}/chain/{chain_id}/total/usd',
    ];
    expect(production.filter((r) => !served('production').has(r))).toEqual([]);
    expect(sandbox.filter((r) => !served('sandbox').has(r))).toEqual([]);
  });
});

describe('an operation definition', () => {
  it.each(OPERATION_IDS)('%s: its HTTP inputs fill exactly the fields of its request schema', (id) => {
    const op = HTTP_OPERATIONS[id];
    const fields = requestFieldsOf(op);
    expect(new Set(fields).size).toBe(fields.length);
    expect([...fields].sort()).toEqual(shapeOf(op.definitions.production.request).sort());
    for (const name of pathParamsOf(op.path)) expect([id, name]).toEqual([id, expect.stringMatching(/^(address|chain_id)$/)]);
  });

  it.each(OPERATION_IDS)('%s: an integer query parameter fills an optional whole-number field with a default, bounded both ways', (id) => {
    const op = HTTP_OPERATIONS[id];
    const request = op.definitions.production.request as z.ZodObject;
    for (const q of op.query.filter((p) => p.kind === 'integer')) {
      expect([id, q.name, q.required]).toEqual([id, q.name, false]);
      // Absent: the schema's default, a whole number; the bounds are the schema's (the gateway reads digits only).
      const fallback = request.shape[q.field]!.parse(undefined);
      expect([id, q.field, Number.isInteger(fallback)]).toEqual([id, q.field, true]);
      const json = request.shape[q.field]!.toJSONSchema({ io: 'input' }) as Record<string, unknown>;
      expect([id, q.field, json['type'], typeof json['minimum'], typeof json['maximum']]).toEqual([
        id,
        q.field,
        'integer',
        'number',
        'number',
      ]);
    }
  });

  it('scoreHistory: days is an integer query parameter, 1 to 365, 90 when absent', () => {
    const op = HTTP_OPERATIONS.scoreHistory;
    expect(op.query).toEqual([expect.objectContaining({ name: 'days', field: 'days', kind: 'integer', required: false })]);
    expect([op.method, op.path, op.price]).toEqual(['GET', '/score/address/{address}/history', { kind: 'fixed', cu: 5 }]);
    expect(op.subjects).toEqual({ production: 'credit.score.history.v1', sandbox: 'credit.sandbox.score.history.v1' });
    expect(SUBJECTS['credit.score.history.v1'].service).toBe('scoring');
    const request = op.definitions.production.request;
    expect(request.parse({ address: 'a' })).toEqual({ address: 'a', days: 90 });
    expect(request.parse({ address: 'a', days: 1 }).days).toBe(1);
    expect(request.parse({ address: 'a', days: 365 }).days).toBe(365);
    for (const days of [0, 366, 1.5, -1]) expect([days, request.safeParse({ address: 'a', days }).success]).toEqual([days, false]);
  });

  it.each(OPERATION_IDS)('%s: a per-address price has an address list to count, and one at most', (id) => {
    const op = HTTP_OPERATIONS[id];
    const lists = op.query.filter((q) => q.kind === 'address_list');
    expect(lists.length).toBeLessThanOrEqual(1);
    if (op.price.kind === 'per_address') expect(lists).toHaveLength(1);
  });

  it.each(OPERATION_IDS)('%s: the sandbox subject mirrors the production one: same request and error codes, its own timeouts', (id) => {
    const { production, sandbox } = HTTP_OPERATIONS[id].definitions;
    expect(sandbox.subject).toBe(production.subject.replace(/^credit\./, 'credit.sandbox.'));
    expect(HTTP_OPERATIONS[id].subjects).toEqual({ production: production.subject, sandbox: sandbox.subject });
    expect(sandbox.request).toBe(production.request);
    expect(sandbox.requestErrors).toBe(production.requestErrors);
    expect([sandbox.service, sandbox.timeoutMs, sandbox.attemptTimeoutMs]).toEqual(['sandbox', 3_000, 1_000]);
    expect(SUBJECTS[HTTP_OPERATIONS[id].subjects.sandbox]).toBe(sandbox);
    expect(SUBJECTS[HTTP_OPERATIONS[id].subjects.production]).toBe(production);
  });

  it('the sandbox reply is the production one unless the entry says otherwise', () => {
    expect(HTTP_OPERATIONS.scoreAddress.definitions.sandbox.reply).toBe(HTTP_OPERATIONS.scoreAddress.definitions.production.reply);
    expect(HTTP_OPERATIONS.scoreAddress.definitions.sandbox.description).toBe('Sandbox mirror of credit.score.address.v1.');
    expect(HTTP_OPERATIONS.reportFull.definitions.sandbox.reply).not.toBe(HTTP_OPERATIONS.reportFull.definitions.production.reply);
  });
});

describe('operationPath', () => {
  it('prefixes /api/v2 and /api/v2/sandbox', () => {
    expect(API_PREFIX).toBe('/api/v2');
    expect(SANDBOX_PREFIX).toBe('/api/v2/sandbox');
    expect(operationPath('scoreAddress', 'production')).toBe('/api/v2/score/address/{address}');
    expect(operationPath('scoreAddress', 'sandbox')).toBe('/api/v2/sandbox/score/address/{address}');
    expect(operationPath('scoreBatch', 'sandbox')).toBe('/api/v2/sandbox/score/batch/');
  });

  it.each(OPERATION_IDS)('%s: production and sandbox paths differ only by the prefix', (id) => {
    const path = HTTP_OPERATIONS[id].path;
    expect(path.startsWith('/')).toBe(true);
    expect(operationPath(id, 'production')).toBe(`/api/v2${path}`);
    expect(operationPath(id, 'sandbox')).toBe(`/api/v2/sandbox${path}`);
  });

  it('aggregated and batch paths end with a slash (docs/API.md §4)', () => {
    for (const id of ['scoreAggregate', 'scoreBatch', 'reportAggregate'] as OperationId[]) {
      expect(HTTP_OPERATIONS[id].path.endsWith('/')).toBe(true);
    }
  });
});

describe('operationPrice', () => {
  it.each(OPERATION_IDS)('%s: the sandbox is free, production charges the table price', (id) => {
    expect(operationPrice(id, 'sandbox')).toEqual({ kind: 'fixed', cu: 0 });
    expect(costOf(operationPrice(id, 'sandbox'), 100)).toBe(0);
    expect(operationPrice(id, 'production')).toBe(HTTP_OPERATIONS[id].price);
    expect(costOf(operationPrice(id, 'production'), 1)).toBeGreaterThan(0);
  });

  it.each(OPERATION_IDS)('%s: its price is its row of the docs/API.md §5 table', (id) => {
    const op = HTTP_OPERATIONS[id];
    const list = op.query.some((q) => q.kind === 'address_list') ? '?address=' : '';
    const route = `${op.method} ${op.path.slice(1).replace('{address}', '{a}').replace('{chain_id}', '{id}')}${list}`;
    const rows = PRICE_ROWS.filter(([operation]) => operation === route || operation.startsWith(`${route} (`));
    expect([id, rows.length]).toEqual([id, 1]);
    const [, cu] = rows[0]!;
    const price = op.price;
    expect([id, cu]).toEqual([id, price.kind === 'fixed' ? `${price.cu}` : expect.stringMatching(new RegExp(`^${price.cu} per address`))]);
    expect([id, Number.isInteger(price.cu) && price.cu >= 1]).toEqual([id, true]);
  });

  it('docs/API.md §8 tiers: boosted score 3-5 CU; the batch counts once per address', () => {
    const enhanced = costOf(operationPrice('scoreEnhanced', 'production'), 1);
    expect(enhanced).toBeGreaterThanOrEqual(3);
    expect(enhanced).toBeLessThanOrEqual(5);
    expect(operationPrice('scoreBatch', 'production')).toEqual({ kind: 'per_address', cu: 1 });
    expect(costOf(operationPrice('scoreBatch', 'production'), 37)).toBe(37);
  });
});
