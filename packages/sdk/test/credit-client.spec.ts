import { AGENT_TOOLS } from '@credit/contracts/agent-tools';
import { OPERATION_IDS } from '@credit/contracts/http-operations';
import type { ScoreHistoryResult } from '@credit/contracts/schemas/score-history';
import { createCreditClient } from '../src/credit-client';

/**
 * The client's methods are generated from `AGENT_TOOLS` and the operation table (one per
 * operation, none written by hand): the calls it sends, through a fetch that records them.
 */
const A = '0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045';

function recordingFetch(body: unknown) {
  const calls: { url: string; method: string | undefined }[] = [];
  const fetch = (input: string | URL | Request, init?: RequestInit) => {
    calls.push({ url: String(input), method: init?.method });
    return Promise.resolve(new Response(JSON.stringify(body), { status: 200, headers: { 'x-cu-cost': '5' } }));
  };
  return { calls, fetch: fetch as typeof globalThis.fetch };
}

const HISTORY: ScoreHistoryResult = {
  address: A,
  model_version: 'andromeda_1.0',
  points: [{ date: '2026-11-26', score: 700, decile: 7, range: 'good' }],
};

describe('createCreditClient', () => {
  it('has one method per operation, named as AGENT_TOOLS says', () => {
    const client = createCreditClient({ baseUrl: 'https://api.example.com', apiKey: 'k' });
    for (const id of OPERATION_IDS)
      expect([id, typeof (client as unknown as Record<string, unknown>)[AGENT_TOOLS[id].method]]).toEqual([id, 'function']);
    expect(AGENT_TOOLS.scoreHistory.method).toBe('getScoreHistory');
  });

  it('getScoreHistory sends days as the query parameter, and leaves it out when absent (the route default, 90)', async () => {
    const { calls, fetch } = recordingFetch(HISTORY);
    const client = createCreditClient({ baseUrl: 'https://api.example.com/', apiKey: 'k', fetch });
    const result = await client.getScoreHistory({ address: A, days: 7 });
    // Typed from the contracts: the reply's points.
    const points: ScoreHistoryResult['points'] = result.data.points;
    expect(points).toEqual(HISTORY.points);
    expect(result.cuCost).toBe(5);
    await client.getScoreHistory({ address: 'vitalik.eth' });
    expect(calls).toEqual([
      { url: `https://api.example.com/api/v2/score/address/${A}/history?days=7`, method: 'GET' },
      { url: 'https://api.example.com/api/v2/score/address/vitalik.eth/history', method: 'GET' },
    ]);
  });

  it('a sandbox client calls the sandbox route', async () => {
    const { calls, fetch } = recordingFetch(HISTORY);
    const sandbox = createCreditClient({ baseUrl: 'https://api.example.com', apiKey: 'k', sandbox: true, fetch });
    expect(sandbox.variant).toBe('sandbox');
    await sandbox.getScoreHistory({ address: A, days: 365 });
    expect(calls.map((c) => c.url)).toEqual([`https://api.example.com/api/v2/sandbox/score/address/${A}/history?days=365`]);
  });
});
