import { Client } from 'pg';
import { createPublicClient, http as viemHttp, parseAbi, type Address } from 'viem';
import type { ChainConfig } from '@credit/chain/chain-config';

/**
 * What a report must say about an address, computed here independently of the service: balances,
 * prices and pool data straight from the chain with plain viem calls (no multicall, no reader of
 * ours), counts and first/last transactions straight from the indexer's raw rows (transactions
 * and logs, not the per-address roll-up the service reads).
 */

const erc20 = parseAbi(['function balanceOf(address) view returns (uint256)']);
const feed = parseAbi([
  'function decimals() view returns (uint8)',
  'function latestRoundData() view returns (uint80, int256, uint256, uint256, uint80)',
]);
const pool = parseAbi(['function getUserAccountData(address) view returns (uint256, uint256, uint256, uint256, uint256, uint256)']);

/** round(numerator / denominator), half up, for non-negative integers. */
const roundDiv = (numerator: bigint, denominator: bigint): bigint => (numerator * 2n + denominator) / (2n * denominator);

export interface ChainTruth {
  chainId: number;
  name: string;
  /** Held assets: symbol → value in cents (balance × feed answer, rounded once). */
  balances: Map<string, bigint>;
  collateralCents: bigint;
  debtCents: bigint;
  activeLoans: number;
}

/** Balances × prices and the pools' account data of `address` on one chain, at its latest block. */
export async function chainTruth(chain: ChainConfig, address: Address): Promise<ChainTruth> {
  const client = createPublicClient({ transport: viemHttp(chain.rpcUrl) });
  const block = await client.getBlockNumber();
  const valueCents = async (amount: bigint, decimals: number, priceFeed: Address): Promise<bigint> => {
    const [feedDecimals, round] = await Promise.all([
      client.readContract({ address: priceFeed, abi: feed, functionName: 'decimals', blockNumber: block }),
      client.readContract({ address: priceFeed, abi: feed, functionName: 'latestRoundData', blockNumber: block }),
    ]);
    return roundDiv(amount * round[1] * 100n, 10n ** BigInt(decimals + feedDecimals));
  };
  const balances = new Map<string, bigint>();
  const native = await client.getBalance({ address, blockNumber: block });
  if (native > 0n) balances.set(chain.nativeSymbol, await valueCents(native, 18, chain.nativePriceFeed));
  for (const token of chain.tokens) {
    const amount = await client.readContract({
      address: token.address,
      abi: erc20,
      functionName: 'balanceOf',
      args: [address],
      blockNumber: block,
    });
    if (amount > 0n) balances.set(token.symbol, await valueCents(amount, token.decimals, token.priceFeed));
  }
  let collateralCents = 0n;
  let debtCents = 0n;
  let activeLoans = 0;
  for (const lending of chain.lendingPools) {
    const data = await client.readContract({
      address: lending.address,
      abi: pool,
      functionName: 'getUserAccountData',
      args: [address],
      blockNumber: block,
    });
    // base currency: USD with 8 decimals
    collateralCents += roundDiv(data[0], 10n ** 6n);
    debtCents += roundDiv(data[1], 10n ** 6n);
    if (data[1] > 0n) activeLoans += 1;
  }
  return { chainId: chain.id, name: chain.name, balances, collateralCents, debtCents, activeLoans };
}

export interface IndexTruth {
  transactions: number;
  transfers: number;
  supplies: number;
  repays: number;
  liquidations: number;
  /** Earliest and latest transaction the address took part in: [unix seconds, block]. */
  first: [number, number] | null;
  last: [number, number] | null;
}

/** The counts of `address` on one chain, from the indexer's raw rows. */
export async function indexTruth(databaseUrl: string, chainId: number, address: Address): Promise<IndexTruth> {
  const db = new Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    const a = address.toLowerCase();
    const count = async (sql: string) => Number((await db.query<{ n: string }>(sql, [chainId, a])).rows[0]!.n);
    const touched = `
      SELECT block_number, tx_index, block_timestamp FROM chain_transactions WHERE chain_id = $1 AND (from_address = $2 OR to_address = $2)
      UNION ALL
      SELECT block_number, tx_index, block_timestamp FROM chain_logs WHERE chain_id = $1 AND (party = $2 OR counterparty = $2)`;
    const edge = async (order: 'ASC' | 'DESC'): Promise<[number, number] | null> => {
      const rows = (
        await db.query<{ block_number: string; block_timestamp: Date }>(
          `SELECT block_number, block_timestamp FROM (${touched}) t ORDER BY block_number ${order}, tx_index ${order} LIMIT 1`,
          [chainId, a],
        )
      ).rows;
      return rows[0] ? [Math.floor(rows[0].block_timestamp.getTime() / 1000), Number(rows[0].block_number)] : null;
    };
    return {
      transactions: await count('SELECT count(*) AS n FROM chain_transactions WHERE chain_id = $1 AND from_address = $2'),
      transfers: await count(
        "SELECT count(*) AS n FROM chain_logs WHERE chain_id = $1 AND kind = 'transfer' AND (party = $2 OR counterparty = $2)",
      ),
      supplies: await count("SELECT count(*) AS n FROM chain_logs WHERE chain_id = $1 AND kind = 'supply' AND party = $2"),
      repays: await count("SELECT count(*) AS n FROM chain_logs WHERE chain_id = $1 AND kind = 'repay' AND party = $2"),
      liquidations: await count("SELECT count(*) AS n FROM chain_logs WHERE chain_id = $1 AND kind = 'liquidation' AND party = $2"),
      first: await edge('ASC'),
      last: await edge('DESC'),
    };
  } finally {
    await db.end();
  }
}

/** A USD number of a reply in whole cents (replies carry at most two decimals). */
export const centsOf = (usd: number): bigint => BigInt(Math.round(usd * 100));
