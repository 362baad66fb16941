import Fastify from 'fastify';
import { AGENT_TOOLS, httpCallOf } from '@credit/contracts/agent-tools';
import { HTTP_OPERATIONS, OPERATION_IDS, operationPath, type Variant } from '@credit/contracts/http-operations';
import { HTTP_INPUT } from '../src/routes/http-input';
import { routePath } from '../src/routes/operation-routes';

/**
 * An MCP tool call and an SDK method send the REST request that `httpCallOf` builds from the
 * operation's request; the gateway reads it back with `HTTP_INPUT`. For every operation and
 * variant, the round trip through Fastify's router and query parser gives the request unchanged.
 */
const SAMPLE: Record<string, unknown> = {
  address: 'ada.eth',
  addresses: ['0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045', 'vitalik.eth'],
  chain_id: 8453,
  include_factors: true,
  days: 30,
  total_asset_usd: 50_000,
  source: { name: 'my bank', total_asset_usd: 1200, count_transactions: 4 },
};

function sampleRequest(id: (typeof OPERATION_IDS)[number]): Record<string, unknown> {
  const fields = Object.keys(HTTP_OPERATIONS[id].definitions.production.request.shape);
  return Object.fromEntries(
    fields.map((field) => {
      if (!(field in SAMPLE)) throw new Error(`no sample value for ${id}.${field}`);
      return [field, SAMPLE[field]];
    }),
  );
}

describe('httpCallOf', () => {
  const app = Fastify();
  beforeAll(async () => {
    for (const variant of ['production', 'sandbox'] as Variant[]) {
      for (const id of OPERATION_IDS) {
        app.route({
          method: HTTP_OPERATIONS[id].method,
          url: routePath(operationPath(id, variant)),
          handler: async (req) => HTTP_INPUT[id](req),
        });
      }
    }
    await app.ready();
  });
  afterAll(() => app.close());

  it.each(OPERATION_IDS.flatMap((id) => (['production', 'sandbox'] as const).map((variant) => [id, variant] as const)))(
    '%s (%s): the REST request carries the operation request unchanged',
    async (id, variant) => {
      const request = sampleRequest(id);
      const call = httpCallOf(id, variant, request);
      const res = await app.inject({
        method: call.method,
        url: call.url,
        ...(call.body === undefined ? {} : { payload: call.body as object }),
      });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual(request);
      expect(call.url.startsWith(variant === 'sandbox' ? '/api/v2/sandbox/' : '/api/v2/')).toBe(true);
    },
  );

  it('a path parameter is escaped, and an absent flag is left out of the query', () => {
    expect(httpCallOf('scoreAddress', 'production', { address: 'a/b?c' }).url).toBe('/api/v2/score/address/a%2Fb%3Fc');
  });

  it('tool and method names are unique', () => {
    expect(new Set(OPERATION_IDS.map((id) => AGENT_TOOLS[id].tool)).size).toBe(OPERATION_IDS.length);
    expect(new Set(OPERATION_IDS.map((id) => AGENT_TOOLS[id].method)).size).toBe(OPERATION_IDS.length);
  });
});
