import type { HexString, IndexedLog, IndexedTransaction, LendingEventKind } from './chain-activity-types';
import { LENDING_EVENT_KINDS } from './chain-activity-types';
import type { Db } from './prisma-client';

/**
 * What newly inserted transaction and event rows add to \`address_activity\` (pure), and the one
 * statement that adds it. Only rows an insert returned are passed here, so a replayed range adds
 * nothing (docs/decisions/0003).
 */

/** Per address: what the rows one write added contribute. */
export interface Delta {
  address: HexString;
  first: { hash: HexString; block: bigint; index: number; at: number };
  last: { hash: HexString; block: bigint; index: number; at: number };
  txCount: number;
  transferCount: number;
  events: Record<LendingEventKind, { count: number; first: number | null; last: number | null }>;
}

export const lower = (value: string): HexString => value.toLowerCase() as HexString;
export const isoOf = (seconds: number) => new Date(seconds * 1000).toISOString();

/** What the newly inserted rows add, per address, in address order (the lock order). */
export function activityDeltas(txs: readonly IndexedTransaction[], logs: readonly IndexedLog[]): Delta[] {
  const byAddress = new Map<HexString, Delta>();
  const touch = (address: HexString, hash: HexString, block: bigint, index: number, at: number): Delta => {
    const key = lower(address);
    let d = byAddress.get(key);
    const ref = { hash: lower(hash), block, index, at };
    if (!d) {
      d = {
        address: key,
        first: ref,
        last: ref,
        txCount: 0,
        transferCount: 0,
        events: {
          supply: { count: 0, first: null, last: null },
          withdraw: { count: 0, first: null, last: null },
          borrow: { count: 0, first: null, last: null },
          repay: { count: 0, first: null, last: null },
          liquidation: { count: 0, first: null, last: null },
        },
      };
      byAddress.set(key, d);
      return d;
    }
    if (block < d.first.block || (block === d.first.block && index < d.first.index)) d.first = ref;
    if (block > d.last.block || (block === d.last.block && index > d.last.index)) d.last = ref;
    return d;
  };
  for (const t of txs) {
    touch(t.from, t.txHash, t.blockNumber, t.txIndex, t.timestamp).txCount += 1;
    if (t.to !== null) touch(t.to, t.txHash, t.blockNumber, t.txIndex, t.timestamp);
  }
  for (const l of logs) {
    const party = touch(l.party, l.txHash, l.blockNumber, l.txIndex, l.timestamp);
    const counterparty = l.counterparty === null ? null : touch(l.counterparty, l.txHash, l.blockNumber, l.txIndex, l.timestamp);
    if (l.kind === 'transfer') {
      party.transferCount += 1;
      if (counterparty !== null && counterparty !== party) counterparty.transferCount += 1;
    } else {
      const e = party.events[l.kind];
      e.count += 1;
      e.first = e.first === null ? l.timestamp : Math.min(e.first, l.timestamp);
      e.last = e.last === null ? l.timestamp : Math.max(e.last, l.timestamp);
    }
  }
  return [...byAddress.values()].sort((a, b) => (a.address < b.address ? -1 : a.address > b.address ? 1 : 0));
}

const EVENT_COLUMNS = LENDING_EVENT_KINDS.flatMap((k) => [`${k}_count`, `first_${k}_at`, `last_${k}_at`]);

export async function upsertActivity(db: Pick<Db, '$executeRawUnsafe'>, chainId: number, deltas: readonly Delta[]): Promise<void> {
  const rows = deltas.map((d, ord) => {
    const row: Record<string, unknown> = {
      ord,
      address: d.address,
      first_tx_hash: d.first.hash,
      first_tx_block: d.first.block.toString(),
      first_tx_index: d.first.index,
      first_tx_at: isoOf(d.first.at),
      last_tx_hash: d.last.hash,
      last_tx_block: d.last.block.toString(),
      last_tx_index: d.last.index,
      last_tx_at: isoOf(d.last.at),
      tx_count: d.txCount,
      transfer_count: d.transferCount,
    };
    for (const k of LENDING_EVENT_KINDS) {
      const e = d.events[k];
      row[`${k}_count`] = e.count;
      row[`first_${k}_at`] = e.first === null ? null : isoOf(e.first);
      row[`last_${k}_at`] = e.last === null ? null : isoOf(e.last);
    }
    return row;
  });
  const eventTypes = LENDING_EVENT_KINDS.flatMap((k) => [`${k}_count int`, `first_${k}_at timestamptz`, `last_${k}_at timestamptz`]);
  const earlier = `(EXCLUDED.first_tx_block, EXCLUDED.first_tx_index) < (a.first_tx_block, a.first_tx_index)`;
  const later = `(EXCLUDED.last_tx_block, EXCLUDED.last_tx_index) > (a.last_tx_block, a.last_tx_index)`;
  const firstCols = ['first_tx_hash', 'first_tx_block', 'first_tx_index', 'first_tx_at'];
  const lastCols = ['last_tx_hash', 'last_tx_block', 'last_tx_index', 'last_tx_at'];
  const set = [
    ...firstCols.map((c) => `${c} = CASE WHEN ${earlier} THEN EXCLUDED.${c} ELSE a.${c} END`),
    ...lastCols.map((c) => `${c} = CASE WHEN ${later} THEN EXCLUDED.${c} ELSE a.${c} END`),
    'tx_count = a.tx_count + EXCLUDED.tx_count',
    'transfer_count = a.transfer_count + EXCLUDED.transfer_count',
    ...LENDING_EVENT_KINDS.flatMap((k) => [
      `${k}_count = a.${k}_count + EXCLUDED.${k}_count`,
      // LEAST / GREATEST ignore NULLs
      `first_${k}_at = LEAST(a.first_${k}_at, EXCLUDED.first_${k}_at)`,
      `last_${k}_at = GREATEST(a.last_${k}_at, EXCLUDED.last_${k}_at)`,
    ]),
    'updated_at = now()',
  ];
  const columns = ['address', ...firstCols, ...lastCols, 'tx_count', 'transfer_count', ...EVENT_COLUMNS];
  await db.$executeRawUnsafe(
    `INSERT INTO address_activity AS a (chain_id, ${columns.join(', ')})
     SELECT $1, ${columns.map((c) => `x.${c}`).join(', ')}
     FROM jsonb_to_recordset($2::jsonb) AS x(
       address text, first_tx_hash text, first_tx_block bigint, first_tx_index int, first_tx_at timestamptz,
       last_tx_hash text, last_tx_block bigint, last_tx_index int, last_tx_at timestamptz,
       tx_count int, transfer_count int, ${eventTypes.join(', ')}, ord bigint)
     ORDER BY x.ord
     ON CONFLICT (chain_id, address) DO UPDATE SET ${set.join(',\n       ')}`,
    chainId,
    JSON.stringify(rows),
  );
}
