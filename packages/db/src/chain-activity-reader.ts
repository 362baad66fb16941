import { lower } from './activity-deltas';
import { ACTIVITY_AGGREGATE_SQL } from './activity-rebuild';
import { ACTIVITY_ROW_COLUMNS, activityRowOf, fieldOfColumn, toActivityRecord, type RawActivityRow } from './activity-rows';
import type {
  AddressActivityRecord,
  BalanceFlowRecord,
  CheckpointRecord,
  HexString,
  InteractionRecord,
  LendingEventRecord,
} from './chain-activity-types';
import type { Db } from './prisma-client';
import { rawRows } from './raw-rows';
import { BALANCE_FLOWS_SQL, INTERACTIONS_SQL } from './wallet-history-sql';

/** How far back `balanceFlowsOf` reads: a day more than the model's 30-day window, for a head a little later than the index. */
export const BALANCE_FLOW_DAYS = 31;

/** What the scorer (and every other reader) asks of the indexer's tables: checkpoints and activity. */
export class ChainActivityReader {
  constructor(protected readonly db: Db) {}

  /** The chain's checkpoint, or null before it was first planned. */
  async checkpoint(chainId: number): Promise<CheckpointRecord | null> {
    return (await this.checkpoints([chainId])).get(chainId) ?? null;
  }

  /**
   * The checkpoints of several chains in one query, by chain id (a chain never planned is absent),
   * each with the timestamp of its last indexed block.
   */
  async checkpoints(chainIds: readonly number[]): Promise<Map<number, CheckpointRecord>> {
    if (chainIds.length === 0) return new Map();
    const rows = await rawRows<{
      chain_id: number;
      indexed_to: string | bigint;
      planned_to: string | bigint;
      confirmations: number;
      indexed_to_at: Date | null;
    }>(
      this.db,
      `SELECT c.chain_id, c.indexed_to, c.planned_to, c.confirmations, r.to_block_at AS indexed_to_at
       FROM indexer_checkpoints c
       LEFT JOIN indexer_ranges r ON r.chain_id = c.chain_id AND r.to_block = c.indexed_to AND r.completed_at IS NOT NULL
       WHERE c.chain_id = ANY($1::int[])`,
      [[...chainIds]],
    );
    return new Map(
      rows.map((row) => [
        row.chain_id,
        {
          chainId: row.chain_id,
          indexedTo: BigInt(row.indexed_to),
          plannedTo: BigInt(row.planned_to),
          indexedToAt: row.indexed_to_at,
          confirmations: row.confirmations,
        },
      ]),
    );
  }

  /** The activity of one address on one chain (null when the indexer saw none). */
  async activity(chainId: number, address: string): Promise<AddressActivityRecord | null> {
    const row = await this.db.addressActivity.findUnique({ where: { chainId_address: { chainId, address: lower(address) } } });
    return row === null ? null : toActivityRecord(row);
  }

  /** The activity of one address on every chain indexed, by chain id. */
  async activityAcrossChains(address: string): Promise<AddressActivityRecord[]> {
    const rows = await this.db.addressActivity.findMany({ where: { address: lower(address) }, orderBy: { chainId: 'asc' } });
    return rows.map(toActivityRecord);
  }

  /**
   * The activity of many addresses on every chain indexed, in ONE query (a scoring batch): rows
   * ordered by address, then chain id. Addresses may come in any case; repeats are harmless.
   */
  async activityOfAddresses(addresses: readonly string[]): Promise<AddressActivityRecord[]> {
    if (addresses.length === 0) return [];
    const wanted = [...new Set(addresses.map(lower))];
    const rows = await rawRows<RawActivityRow>(
      this.db,
      `SELECT ${ACTIVITY_ROW_COLUMNS} FROM address_activity WHERE address = ANY($1::text[]) ORDER BY address, chain_id`,
      [wanted],
    );
    return rows.map((row) => toActivityRecord(activityRowOf(row)));
  }

  /** Every activity row of a chain, by address (tests, exports). */
  async chainActivity(chainId: number): Promise<AddressActivityRecord[]> {
    const rows = await this.db.addressActivity.findMany({ where: { chainId }, orderBy: { address: 'asc' } });
    return rows.map(toActivityRecord);
  }

  /**
   * The borrow, repay and liquidation events about many addresses on the given chains, in ONE
   * query, in chain order (block, transaction, log) per address; `toBlock` bounds a chain's events
   * (inclusive) for a reading as of a past block.
   */
  async lendingEventsOf(
    chainIds: readonly number[],
    addresses: readonly string[],
    toBlock?: ReadonlyMap<number, bigint>,
  ): Promise<LendingEventRecord[]> {
    if (addresses.length === 0 || chainIds.length === 0) return [];
    const wanted = [...new Set(addresses.map(lower))];
    const rows = await rawRows<{
      chain_id: number;
      party: string;
      actor: string | null;
      kind: LendingEventRecord['kind'];
      asset: string;
      amount: string;
      block_number: string | bigint;
      tx_index: number;
      log_index: number;
      at: Date;
    }>(
      this.db,
      `SELECT chain_id, party, counterparty AS actor, kind::text AS kind, asset, amount::text AS amount, block_number, tx_index, log_index, block_timestamp AS at
       FROM unnest($1::int[], $3::bigint[]) AS bound(chain, last_block)
       JOIN chain_logs ON chain_id = bound.chain AND (bound.last_block IS NULL OR block_number <= bound.last_block)
       WHERE party = ANY($2::text[]) AND kind IN ('borrow', 'repay', 'liquidation') AND asset IS NOT NULL
       ORDER BY chain_id, party, block_number, tx_index, log_index`,
      [[...chainIds], wanted, boundsOf(chainIds, toBlock)],
    );
    return rows.map((r) => ({
      chainId: r.chain_id,
      address: r.party as HexString,
      kind: r.kind,
      asset: r.asset as HexString,
      amount: BigInt(r.amount),
      actor: r.actor as HexString | null,
      blockNumber: BigInt(r.block_number),
      txIndex: r.tx_index,
      logIndex: r.log_index,
      timestamp: Math.floor(r.at.getTime() / 1000),
    }));
  }

  /**
   * The net movements in and out of many addresses' balances over each chain's last
   * `days` days of index (default `BALANCE_FLOW_DAYS`; native coin, tokens, collateral;
   * `BALANCE_FLOWS_SQL`), in ONE query, in chain order per address and asset; `toBlock` bounds a
   * chain (a reading of the past).
   */
  async balanceFlowsOf(
    chainIds: readonly number[],
    addresses: readonly string[],
    toBlock?: ReadonlyMap<number, bigint>,
    days: number = BALANCE_FLOW_DAYS,
  ): Promise<BalanceFlowRecord[]> {
    if (addresses.length === 0 || chainIds.length === 0) return [];
    const rows = await rawRows<{
      chain_id: number;
      address: string;
      asset: string;
      amount: string;
      block_number: string | bigint;
      tx_index: number;
      at: Date;
    }>(this.db, BALANCE_FLOWS_SQL, [[...chainIds], [...new Set(addresses.map(lower))], boundsOf(chainIds, toBlock), days]);
    return rows.map((r) => ({
      chainId: r.chain_id,
      address: r.address as HexString,
      asset: r.asset,
      amount: BigInt(r.amount),
      blockNumber: BigInt(r.block_number),
      txIndex: r.tx_index,
      timestamp: Math.floor(r.at.getTime() / 1000),
    }));
  }

  /** Many addresses' dealings with other addresses, per chain, in ONE query (`INTERACTIONS_SQL`); `toBlock` as above. */
  async interactionsOf(
    chainIds: readonly number[],
    addresses: readonly string[],
    toBlock?: ReadonlyMap<number, bigint>,
  ): Promise<InteractionRecord[]> {
    if (addresses.length === 0 || chainIds.length === 0) return [];
    const rows = await rawRows<{
      chain_id: number;
      address: string;
      sent: number;
      transfers: number;
      counterparties: number;
      months: number[];
      last_at: Date;
    }>(this.db, INTERACTIONS_SQL, [[...chainIds], [...new Set(addresses.map(lower))], boundsOf(chainIds, toBlock)]);
    return rows.map((r) => ({
      chainId: r.chain_id,
      address: r.address as HexString,
      sentToOthers: r.sent,
      transfersWithOthers: r.transfers,
      counterparties: r.counterparties,
      activeMonths: [...r.months].sort((a, b) => a - b),
      lastAt: Math.floor(r.last_at.getTime() / 1000),
    }));
  }

  /**
   * The activity of some addresses on one chain as it stood after block `block`: the aggregation a
   * rollback rebuilds rows with, bounded by the block (a reading of the past: the model card, the
   * monotonicity replay). Addresses with no activity by then are absent.
   */
  async activityAsOfBlock(chainId: number, addresses: readonly string[], block: bigint): Promise<AddressActivityRecord[]> {
    if (addresses.length === 0) return [];
    const rows = await this.db.$queryRawUnsafe<Record<string, unknown>[]>(
      ACTIVITY_AGGREGATE_SQL,
      chainId,
      [...new Set(addresses.map(lower))],
      block,
    );
    return rows.map((row) =>
      toActivityRecord(
        Object.fromEntries(Object.entries(row).map(([k, v]) => [fieldOfColumn(k), v])) as unknown as Parameters<typeof toActivityRecord>[0],
      ),
    );
  }
}

/** Each chain's last block (null: all of it), in `chainIds`' order, as the queries' bigint[] parameter. */
function boundsOf(chainIds: readonly number[], toBlock?: ReadonlyMap<number, bigint>): (bigint | null)[] {
  return chainIds.map((id) => toBlock?.get(id) ?? null);
}
