import { randomUUID } from 'node:crypto';
import { DomainError, type ErrorCode } from '@credit/contracts/errors';
import { OPERATION_IDS } from '@credit/contracts/http-operations';
import { SUBJECTS, subjectsOf, type SubjectName } from '@credit/contracts/subjects';
import { codeOf } from '@credit/testing/domain-errors';
import { connectNats } from '@credit/rpc/nats-connection';
import { RpcClient } from '@credit/rpc/rpc-client';
import { startService, type RunningService } from '@credit/rpc/start-service';
import { prefixed } from '@credit/rpc/subject-prefix';
import type { NatsConnection } from 'nats';
import { SandboxModule } from '../src/sandbox.module';

/**
 * The sandbox service against the real NATS server: every subject answers through the typed
 * client, domain errors cross the wire with their codes, and replicas share the queue group.
 */
const NATS_URL = process.env['NATS_URL'] ?? 'nats://127.0.0.1:4222';
const PREFIX = `t${randomUUID().replace(/-/g, '')}`;
const A = '0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045';
const B = '0xAb5801a7D398351b8bE11C439e05C5B3259aeC9B';

const boot = () =>
  startService(SandboxModule, { service: 'sandbox', natsUrl: NATS_URL, subjectPrefix: PREFIX, healthPort: 0, silent: true });

let service: RunningService;
let nc: NatsConnection;
let client: RpcClient;

beforeAll(async () => {
  service = await boot();
  nc = await connectNats({ url: NATS_URL, name: 'test' });
  client = new RpcClient(nc, PREFIX);
});

afterAll(async () => {
  await nc?.close();
  await service?.close();
});

/**
 * Sends a packet as-is, skipping the client's own request validation, to show that the service
 * itself rejects it (an internal caller that skips the gateway gets the same answers).
 */
async function rawCode(subject: SubjectName, data: unknown): Promise<ErrorCode | undefined> {
  const msg = await nc.request(
    prefixed(PREFIX, subject),
    new TextEncoder().encode(JSON.stringify({ pattern: subject, data, id: randomUUID() })),
    { timeout: 5_000 },
  );
  const packet = JSON.parse(new TextDecoder().decode(msg.data)) as { err?: unknown };
  return DomainError.fromWire(packet.err)?.code;
}

describe('sandbox over NATS', () => {
  it('handles every credit.sandbox.* subject of the contracts', () => {
    const sandboxSubjects = subjectsOf('sandbox');
    expect(sandboxSubjects).toHaveLength(OPERATION_IDS.length);
    expect(sandboxSubjects.every((s) => s.startsWith('credit.sandbox.'))).toBe(true);
    expect(Object.keys(SUBJECTS).filter((s) => s.startsWith('credit.sandbox.'))).toEqual(sandboxSubjects);
  });

  it('answers every subject', async () => {
    const score = await client.send('credit.sandbox.score.address.v1', { address: A, include_factors: true });
    expect(score.address).toBe(A);
    expect(score.factors).toHaveLength(6);
    const again = await client.send('credit.sandbox.score.address.v1', { address: A.toLowerCase() });
    expect(again.score).toBe(score.score);

    const aggregate = await client.send('credit.sandbox.score.aggregate.v1', { addresses: [A, 'bad', B] });
    expect(aggregate.address).toEqual([A, B]);

    const batch = await client.send('credit.sandbox.score.batch.v1', { addresses: [A, B, 'vitalik.eth'] });
    expect(batch.count).toBe(3);

    const enhanced = await client.send('credit.sandbox.score.enhanced.v1', { address: A, total_asset_usd: 50_000 });
    expect(enhanced.score).toBeGreaterThanOrEqual(score.score);

    const history = await client.send('credit.sandbox.score.history.v1', { address: A, days: 7 });
    expect(history.points).toHaveLength(7);
    expect(history.points.at(-1)?.score).toBe(score.score);
    expect((await client.send('credit.sandbox.score.history.v1', { address: A })).points).toHaveLength(90);

    const full = await client.send('credit.sandbox.report.full.v1', { address: A });
    expect(full.sandbox).toBe(true);

    const enhancedReport = await client.send('credit.sandbox.report.enhanced.v1', {
      address: A,
      source: { name: 'Acme', total_asset_usd: 10 },
    });
    expect(enhancedReport.report.additional?.source).toEqual({ name: 'Acme', data: { total_asset_usd: 10 } });
    expect(enhancedReport.report.chains).toEqual([]);

    const aggregateReport = await client.send('credit.sandbox.report.aggregate.v1', { addresses: [A, B, 'nope'] });
    expect(aggregateReport.report.address).toEqual([A, B]);

    const summary = await client.send('credit.sandbox.report.summary.v1', { address: A });
    expect(typeof summary.report.first_transaction?.timestamp).toBe('string');

    const chain = await client.send('credit.sandbox.report.chain.v1', { address: A, chain_id: 1 });
    expect(chain.report.chains[0]?.chain.id).toBe(1);

    const totalUsd = await client.send('credit.sandbox.report.total-usd.v1', { address: A });
    expect(totalUsd.total_asset_usd).toBe(full.assets.total_value_usd);

    const total = await client.send('credit.sandbox.report.total-usd-aggregate.v1', { address: A });
    expect(total.total_asset_usd).toBe(full.assets.total_value_usd);

    const chainTotal = await client.send('credit.sandbox.report.chain-total-usd.v1', { address: A, chain_id: 1 });
    expect(chainTotal.chain_name).toBe('Ethereum');

    const identity = await client.send('credit.sandbox.identity.attestations.v1', { address: 'vitalik.eth' });
    expect(identity.ens?.primary_name).toBe('vitalik.eth');
    expect(identity.cached).toBe(false);
  });

  it('sends domain errors across the wire with their codes', async () => {
    expect(await codeOf(client.send('credit.sandbox.score.address.v1', { address: '0x123' }))).toBe('address_not_found');
    expect(await codeOf(client.send('credit.sandbox.identity.attestations.v1', { address: 'nope' }))).toBe('address_not_found');
    expect(await codeOf(client.send('credit.sandbox.report.chain.v1', { address: A, chain_id: 56 }))).toBe('unsupported_chain');
    expect(await codeOf(client.send('credit.sandbox.report.chain-total-usd.v1', { address: A, chain_id: 56 }))).toBe('unsupported_chain');
    expect(await codeOf(client.send('credit.sandbox.score.aggregate.v1', { addresses: ['a', 'b'] }))).toBe('no_valid_address');
    expect(await codeOf(client.send('credit.sandbox.score.batch.v1', { addresses: ['0x1'] }))).toBe('no_valid_address');
    expect(await codeOf(client.send('credit.sandbox.report.aggregate.v1', { addresses: ['x'] }))).toBe('no_valid_address');
    // The typed client refuses an oversized batch before it leaves, with the same code.
    const many = Array.from({ length: 101 }, () => A);
    expect(await codeOf(client.send('credit.sandbox.score.batch.v1', { addresses: many }))).toBe('batch_too_large');
  });

  it('rejects invalid requests in the service too (packets that skipped client validation)', async () => {
    const many = Array.from({ length: 101 }, () => A);
    expect(await rawCode('credit.sandbox.score.batch.v1', { addresses: many })).toBe('batch_too_large');
    expect(await rawCode('credit.sandbox.score.aggregate.v1', { addresses: [] })).toBe('no_valid_address');
    expect(await rawCode('credit.sandbox.score.enhanced.v1', { address: A, total_asset_usd: -5 })).toBe('invalid_body');
    expect(await rawCode('credit.sandbox.report.enhanced.v1', { address: A, source: { total_asset_usd: 5 } })).toBe('missing_source_name');
    expect(await rawCode('credit.sandbox.report.enhanced.v1', { address: A, source: { name: 'x', count_transfers: -1 } })).toBe(
      'invalid_body',
    );
    expect(await rawCode('credit.sandbox.report.chain.v1', { address: A, chain_id: -1 })).toBe('invalid_parameter');
    expect(await rawCode('credit.sandbox.score.address.v1', {})).toBe('invalid_parameter');
    expect(await rawCode('credit.sandbox.score.history.v1', { address: A, days: 0 })).toBe('invalid_parameter');
    expect(await rawCode('credit.sandbox.score.history.v1', { address: A, days: 366 })).toBe('invalid_parameter');
  });

  it('shares the load between two replicas in the queue group', async () => {
    const second = await boot();
    try {
      const first = service.app.unwrap<NatsConnection>();
      const other = second.app.unwrap<NatsConnection>();
      const before = [first.stats().inMsgs, other.stats().inMsgs];
      const requests = 200;
      await Promise.all(
        Array.from({ length: requests }, (_, i) =>
          client.send('credit.sandbox.score.address.v1', { address: `0x${(i + 1).toString(16).padStart(40, '0')}` }),
        ),
      );
      const handled = [first.stats().inMsgs - before[0]!, other.stats().inMsgs - before[1]!];
      expect(handled[0]).toBeGreaterThan(0);
      expect(handled[1]).toBeGreaterThan(0);
      expect(handled[0]! + handled[1]!).toBe(requests);
    } finally {
      await second.close();
    }
  });
});
