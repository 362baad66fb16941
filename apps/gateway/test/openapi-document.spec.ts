import { HTTP_OPERATIONS, OPERATION_IDS, operationPath } from '@credit/contracts/http-operations';
import { buildOpenApiDocument } from '../src/openapi/openapi-document';

/** The OpenAPI document's operation parameters, as generated from the operation table. */
type Operation = { operationId: string; parameters: { name: string; in: string; required: boolean; schema: Record<string, unknown> }[] };
const doc = buildOpenApiDocument() as { paths: Record<string, Record<string, Operation>> };
const entry = (path: string, method = 'get') => doc.paths[path]![method]!;

describe('OpenAPI document: parameters', () => {
  it('score history: days is an optional integer query parameter, 1 to 365, 90 by default, in both variants', () => {
    for (const [path, id] of [
      ['/api/v2/score/address/{address}/history', 'scoreHistory'],
      ['/api/v2/sandbox/score/address/{address}/history', 'sandbox_scoreHistory'],
    ] as const) {
      const op = entry(path);
      expect(op.operationId).toBe(id);
      expect(op.parameters).toEqual([
        expect.objectContaining({ name: 'address', in: 'path', required: true, schema: { type: 'string' } }),
        expect.objectContaining({
          name: 'days',
          in: 'query',
          required: false,
          schema: { type: 'integer', minimum: 1, maximum: 365, default: 90 },
        }),
      ]);
    }
  });

  it('flags are booleans, address lists strings', () => {
    expect(entry('/api/v2/score/address/{address}').parameters.find((p) => p.name === 'include_factors')?.schema).toEqual({
      type: 'boolean',
    });
    expect(entry('/api/v2/score/batch/').parameters.find((p) => p.name === 'address')).toMatchObject({
      required: true,
      schema: { type: 'string' },
    });
  });

  it('every query parameter of every operation is documented, with its kind as its type', () => {
    const types = { flag: 'boolean', address_list: 'string', integer: 'integer' } as const;
    for (const id of OPERATION_IDS) {
      const op = HTTP_OPERATIONS[id];
      const documented = entry(operationPath(id, 'production'), op.method.toLowerCase()).parameters.filter((p) => p.in === 'query');
      expect([id, documented.map((p) => [p.name, p.schema['type']])]).toEqual([id, op.query.map((q) => [q.name, types[q.kind]])]);
    }
  });

  it('the history reply is the contracts’ shape: address, model_version and dated points', () => {
    const schema = (
      entry('/api/v2/score/address/{address}/history') as unknown as {
        responses: { '200': { content: { 'application/json': { schema: { required: string[]; properties: Record<string, unknown> } } } } };
      }
    ).responses['200'].content['application/json'].schema;
    expect(schema.required.sort()).toEqual(['address', 'model_version', 'points']);
    expect(schema.properties['points']).toMatchObject({
      type: 'array',
      items: { properties: { date: { type: 'string', format: 'date' } } },
    });
  });
});
