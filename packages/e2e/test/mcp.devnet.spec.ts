import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { getAddress } from 'viem';
import { AGENT_TOOLS } from '@credit/contracts/agent-tools';
import { OPERATION_IDS, type OperationId } from '@credit/contracts/http-operations';
import { MODEL_VERSION } from '@credit/contracts/schemas/common';
import { UsageLedgerRepository } from '@credit/db/usage-ledger-repository';
import type { CastRole } from '@credit/devnet/state-file';
import { startReferenceStack, type ReferenceStack } from '@credit/test-stack/reference-stack';
import { http } from '@credit/test-stack/test-stack';
import { agentCases, withoutTimes, type AgentCase } from './support/agent-cases';

/**
 * The MCP server (issue 36) driven by the official SDK client over HTTP, on the reference world:
 * every tool answers what its REST route answers and is charged what the route is charged, the
 * key is checked at the HTTP level, limits become tool errors, the sandbox is free.
 */
jest.setTimeout(300_000);

let reference: ReferenceStack;
const cast = (role: CastRole) => getAddress(reference.world.devnet.state.cast[role]!.address);

beforeAll(async () => {
  reference = await startReferenceStack(['scoring', 'reports']);
}, 600_000);

afterAll(async () => {
  await reference?.close();
});

/** An MCP client of the official SDK on `path`, recording the headers of every HTTP response. */
async function connect(key: string, path = '/mcp', base = reference.stack.url) {
  const responses: Headers[] = [];
  const transport = new StreamableHTTPClientTransport(new URL(`${base}${path}`), {
    requestInit: { headers: { authorization: `Bearer ${key}` } },
    fetch: async (url, init) => {
      const res = await fetch(url, init);
      responses.push(res.headers);
      return res;
    },
  });
  const client = new Client({ name: 'e2e', version: '1.0.0' });
  await client.connect(transport);
  const call = async (name: string, args: Record<string, unknown>) => {
    const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
    return { result, headers: responses.at(-1)! };
  };
  return { client, call, close: () => client.close() };
}

const rest = (key: string, c: AgentCase<OperationId>) =>
  http(reference.stack.url, c.rest.path, { method: c.rest.method, key, body: c.rest.body });
const cases = () => agentCases(cast('healthy_borrower'), cast('multichain'), cast('ens_holder'), reference.world.registry[0]!.id);
const errorBody = (result: CallToolResult) => JSON.parse((result.content[0] as { text: string }).text) as Record<string, unknown>;

describe('tools', () => {
  it('lists the 14 tools, each with input and output schemas, read-only hints and its price', async () => {
    const mcp = await connect(reference.key);
    const { tools } = await mcp.client.listTools();
    await mcp.close();
    expect(tools.map((t) => t.name).sort()).toEqual(OPERATION_IDS.map((id) => AGENT_TOOLS[id].tool).sort());
    expect(tools).toHaveLength(14);
    for (const tool of tools) {
      expect(tool.inputSchema.type).toBe('object');
      expect(tool.outputSchema?.type).toBe('object');
      expect(tool.annotations).toMatchObject({ readOnlyHint: true, idempotentHint: true, destructiveHint: false });
      expect(tool.description).toMatch(/Costs \d+ CU/);
    }
    expect(tools.find((t) => t.name === 'get_chain_report')!.inputSchema.required).toEqual(['address', 'chain_id']);
  });

  it('every tool answers its REST route body as structured content, and is charged the same CU, on the same ledger lines', async () => {
    const warm = await reference.stack.createKey({ plan: 'pro' });
    const viaMcp = await reference.stack.createKey({ plan: 'pro' });
    const viaRest = await reference.stack.createKey({ plan: 'pro' });
    const mcp = await connect(viaMcp.key);
    for (const [id, c] of Object.entries(cases()) as [OperationId, AgentCase<OperationId>][]) {
      expect({ id, status: (await rest(warm.key, c)).status }).toEqual({ id, status: 200 });
      const { result, headers } = await mcp.call(AGENT_TOOLS[id].tool, c.args);
      const answer = await rest(viaRest.key, c);
      expect({ id, isError: result.isError ?? false }).toEqual({ id, isError: false });
      expect({ id, body: withoutTimes(result.structuredContent) }).toEqual({ id, body: withoutTimes(answer.body) });
      expect({ id, cost: headers.get('x-cu-cost') }).toEqual({ id, cost: answer.headers.get('x-cu-cost') });
      expect((result.content[1] as { text: string }).text).toBe(JSON.stringify(result.structuredContent));
    }
    await mcp.close();
    const usage = async (key: string) => (await http(reference.stack.url, '/users/me/usage', { key })).body;
    const [mcpUsage, restUsage] = [await usage(viaMcp.key), await usage(viaRest.key)];
    expect(mcpUsage.by_operation).toEqual(restUsage.by_operation);
    expect(Object.keys(mcpUsage.by_operation).sort()).toEqual([...OPERATION_IDS].sort());
    // The ledger lines (operation, kind, CU) of both accounts, once the outbox has drained.
    const ledger = new UsageLedgerRepository(reference.stack.db);
    const lines = async (accountId: string, total: number) => {
      for (const deadline = Date.now() + 30_000; ; await new Promise((r) => setTimeout(r, 100))) {
        const entries = await ledger.entriesOfAccount(accountId);
        if (entries.reduce((sum, e) => sum + e.cu, 0) === total || Date.now() > deadline) {
          return entries.map((e) => `${e.operation} ${e.kind} ${e.cu}`).sort();
        }
      }
    };
    expect(await lines(viaMcp.accountId, mcpUsage.used)).toEqual(await lines(viaRest.accountId, restUsage.used));
  });

  it('bad arguments are a tool error with the status and body shape REST gives them, charged nothing', async () => {
    const { key } = await reference.stack.createKey({ plan: 'pro' });
    const mcp = await connect(key);
    const address = cast('healthy_borrower');
    const { result, headers } = await mcp.call('get_chain_report', { address, chain_id: -1 });
    const empty = await mcp.call('get_credit_scores_batch', { addresses: [] });
    await mcp.close();
    const rest = await http(reference.stack.url, `/api/v2/report/address/${address}/chain/-1`, { key });
    expect(rest.status).toBe(400);
    expect(result).toMatchObject({ isError: true, _meta: { http_status: 400 } });
    // REST's shape and status; the words are the request schema's (REST reads the path first)
    expect(Object.keys(errorBody(result))).toEqual(Object.keys(rest.body));
    expect(errorBody(result)).toEqual({ detail: expect.stringMatching(/^chain_id/) });
    expect(empty.result).toMatchObject({ isError: true, _meta: { http_status: 400 } });
    expect(errorBody(empty.result)).toEqual({ error: expect.any(String), status_code: 400 });
    expect(headers.get('x-cu-cost')).toBeNull();
    expect((await http(reference.stack.url, '/users/me/usage', { key })).body.used).toBe(0);
  });

  it('a REST failure is a tool error carrying the REST error body', async () => {
    const mcp = await connect(reference.key);
    const unknown = '0x000000000000000000000000000000000000dEaD';
    const { result } = await mcp.call('get_credit_score', { address: unknown });
    const answer = await http(reference.stack.url, `/api/v2/score/address/${unknown}`, { key: reference.key });
    await mcp.close();
    expect(answer.status).toBe(404);
    expect(result).toMatchObject({ isError: true, _meta: { http_status: 404 } });
    expect(errorBody(result)).toEqual(answer.body);
  });
});

describe('limits and keys', () => {
  it('refuses an MCP request without a valid key at the HTTP level: 401 with WWW-Authenticate: Bearer', async () => {
    const initialize = {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } },
    };
    const headers = { accept: 'application/json, text/event-stream' };
    for (const key of [undefined, 'csk_notakey']) {
      const res = await http(reference.stack.url, '/mcp', { method: 'POST', key, headers, body: initialize });
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toMatch(/^Bearer /);
      expect(typeof res.body.detail).toBe('string');
    }
    await expect(connect('csk_' + 'a'.repeat(40), '/mcp/sandbox')).rejects.toThrow();
    expect((await http(reference.stack.url, '/mcp', { key: reference.key })).status).toBe(405);
  });

  it('a call over the rate limit is a tool error with the 429 body, charged nothing', async () => {
    const limited = await reference.stack.startGatewayReplica({ RATE_LIMIT_FREE_PER_MIN: '2' });
    const { key } = await reference.stack.createKey({ plan: 'free' });
    const mcp = await connect(key, '/mcp', limited.url);
    const args = { address: cast('healthy_borrower') };
    const results = [];
    for (let i = 0; i < 3; i++) results.push(await mcp.call('get_credit_score', args));
    await mcp.close();
    expect(results.map((r) => r.result.isError ?? false)).toEqual([false, false, true]);
    const refused = results[2]!;
    expect(refused.result._meta).toEqual({ http_status: 429 });
    expect(errorBody(refused.result)).toMatchObject({ detail: { error: 'rate_limited', retry_after: expect.any(Number) } });
    expect(refused.headers.get('x-cu-cost')).toBeNull();
    expect(results[1]!.headers.get('ratelimit')).toMatch(/^"api";r=0;/);
    expect((await http(limited.url, '/users/me/usage', { key })).body.used).toBe(2);
  });
});

describe('the sandbox', () => {
  it('is free and deterministic, and answers what the REST sandbox answers', async () => {
    const { key } = await reference.stack.createKey({ plan: 'free' });
    const mcp = await connect(key, '/mcp/sandbox');
    const address = cast('new_wallet');
    const first = await mcp.call('get_credit_score', { address });
    const second = await mcp.call('get_credit_score', { address });
    const report = await mcp.call('get_comprehensive_report', { address });
    await mcp.close();
    const answer = await http(reference.stack.url, `/api/v2/sandbox/score/address/${address}`, { key });
    expect(withoutTimes(first.result.structuredContent)).toEqual(withoutTimes(second.result.structuredContent));
    expect(withoutTimes(first.result.structuredContent)).toEqual(withoutTimes(answer.body));
    expect(report.result.structuredContent).toMatchObject({ sandbox: true, address });
    expect([first, second, report].map((r) => r.headers.get('x-cu-cost'))).toEqual(['0', '0', '0']);
    expect((await http(reference.stack.url, '/users/me/usage', { key })).body).toMatchObject({ used: 0, by_operation: {} });
  });
});

describe('instructions, resources, llms.txt', () => {
  it('explains the scores in its instructions and serves the model card and the API reference', async () => {
    const mcp = await connect(reference.key);
    const instructions = mcp.client.getInstructions();
    const { resources } = await mcp.client.listResources();
    const card = await mcp.client.readResource({ uri: resources.find((r) => r.name === 'model-card')!.uri });
    await mcp.close();
    expect(instructions).toMatch(/300 to 1000/);
    expect(instructions).toContain('get_comprehensive_report: 7 CU');
    expect(resources.map((r) => r.name).sort()).toEqual(['api-reference', 'model-card']);
    expect((card.contents[0] as { text: string }).text).toContain(MODEL_VERSION);
  });

  it('GET /llms.txt describes the API, the MCP endpoints and every tool, without a key', async () => {
    const res = await fetch(`${reference.stack.url}/llms.txt`);
    const text = await res.text();
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/markdown/);
    for (const id of OPERATION_IDS) expect(text).toContain(`\`${AGENT_TOOLS[id].tool}\``);
    expect(text).toContain('POST /mcp/sandbox');
    expect(text).toContain('@credit/sdk');
  });
});
