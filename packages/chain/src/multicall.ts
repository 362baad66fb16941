import { encodeFunctionData, getAddress, numberToHex, type Abi, type Address, type Hex } from 'viem';
import { decodeAggregate3Result, encodeAggregate3, type Call3, type Result3 } from './aggregate3-codec';
import { multicall3Abi } from './abis';
import { decodeResult } from './static-result-decoder';
import type { ChainClient } from './clients';

/** One contract read inside a multicall. */
export interface PlannedCall {
  address: Address;
  abi: Abi;
  functionName: string;
  args?: readonly unknown[];
}

/** A read's outcome: decoded value, or why it failed (a revert, with the data it reverted with; no code at the address; bad data). */
export type CallResult = { ok: true; value: unknown } | { ok: false; error: string; revertData?: Hex };

/** The block every call of one read ran against. */
export interface BlockRef {
  number: bigint;
  /** Seconds. */
  timestamp: bigint;
}

/**
 * Calls to make and how to turn their results into a value. Plans compose (`combinePlans`), so
 * several readers' calls go out in the same aggregate3.
 */
export interface ReadPlan<T> {
  readonly calls: readonly PlannedCall[];
  decode(results: readonly CallResult[], block: BlockRef): T;
}

type PlanValues<P extends Record<string, ReadPlan<unknown>>> = { [K in keyof P]: P[K] extends ReadPlan<infer T> ? T : never };

/** One plan running the calls of several, decoded into an object of their values. */
export function combinePlans<P extends Record<string, ReadPlan<unknown>>>(plans: P): ReadPlan<PlanValues<P>> {
  const entries = Object.entries(plans);
  return {
    calls: entries.flatMap(([, plan]) => plan.calls),
    decode(results, block) {
      const out: Record<string, unknown> = {};
      let offset = 0;
      for (const [key, plan] of entries) {
        out[key] = plan.decode(results.slice(offset, offset + plan.calls.length), block);
        offset += plan.calls.length;
      }
      return out as PlanValues<P>;
    },
  };
}

export function mapPlan<A, B>(plan: ReadPlan<A>, fn: (value: A, block: BlockRef) => B): ReadPlan<B> {
  return { calls: plan.calls, decode: (results, block) => fn(plan.decode(results, block), block) };
}

export interface ExecuteOptions {
  /** Read at this block (default: latest). */
  blockNumber?: bigint;
}

/**
 * A read of a whole chain failed: the node is unreachable or timed out, or Multicall3 is missing.
 * Services answer it as a dependency failure (no figure is made up in its place).
 */
export class ChainReadError extends Error {
  override readonly name = 'ChainReadError';
  constructor(
    readonly chainId: number,
    message: string,
    override readonly cause?: unknown,
  ) {
    super(`chain ${chainId}: ${message}`);
  }
}

function chunk<T>(items: readonly T[], size: number): T[][] {
  const chunks: T[][] = [];
  for (let i = 0; i < items.length; i += size) chunks.push(items.slice(i, i + size));
  return chunks.length > 0 ? chunks : [[]];
}

function errorText(error: unknown): string {
  const e = error as { shortMessage?: string; message?: string };
  return e.shortMessage ?? e.message ?? String(error);
}

/**
 * Runs a plan as Multicall3 `aggregate3` eth_calls with every call allowed to fail on its own:
 * ONE eth_call while the plan (plus two block calls) fits the chain's `maxCallsPerMulticall`,
 * otherwise one per chunk. The first chunk also reads the block number and timestamp; the other
 * chunks then run in parallel at that block, so every result describes the same state.
 * A transport failure (node down, timeout) throws; a failing call only marks its own result.
 */
export async function executePlan<T>(chainClient: ChainClient, plan: ReadPlan<T>, options: ExecuteOptions = {}): Promise<T> {
  const { config, client } = chainClient;
  const multicall = config.multicall3;
  const blockCalls: PlannedCall[] = [
    { address: multicall, abi: multicall3Abi, functionName: 'getBlockNumber' },
    { address: multicall, abi: multicall3Abi, functionName: 'getCurrentBlockTimestamp' },
  ];
  const all = [...blockCalls, ...plan.calls];
  const encoded = all.map((call): Call3 => ({
    target: call.address,
    allowFailure: true,
    callData: encodeFunctionData({ abi: call.abi, functionName: call.functionName, args: call.args } as never) as Hex,
  }));
  const chunks = chunk(encoded, config.maxCallsPerMulticall);

  // the aggregate3 itself coded by hand (aggregate3-codec.ts): viem's generic coder cost more CPU than the rest of the read
  const run = async (calls: readonly Call3[], blockNumber: bigint | undefined) => {
    try {
      const data = await client.request({
        method: 'eth_call',
        params: [{ to: multicall, data: encodeAggregate3(calls) }, blockNumber !== undefined ? numberToHex(blockNumber) : 'latest'],
      });
      return decodeAggregate3Result(data);
    } catch (error) {
      throw new ChainReadError(config.id, `multicall of ${calls.length} calls at ${multicall} failed: ${errorText(error)}`, error);
    }
  };

  let raw: Result3[];
  if (options.blockNumber !== undefined || chunks.length === 1) {
    raw = (await Promise.all(chunks.map((c) => run(c, options.blockNumber)))).flat();
  } else {
    const first = await run(chunks[0]!, undefined);
    const pinned = decode(blockCalls[0]!, first[0]!);
    if (!pinned.ok) throw new ChainReadError(config.id, `Multicall3.getBlockNumber failed: ${pinned.error}`);
    const rest = await Promise.all(chunks.slice(1).map((c) => run(c, pinned.value as bigint)));
    raw = [...first, ...rest.flat()];
  }
  if (raw.length !== all.length) throw new ChainReadError(config.id, `multicall returned ${raw.length} results for ${all.length} calls`);

  const results = all.map((call, i) => decode(call, raw[i]!));
  const number = results[0]!;
  const timestamp = results[1]!;
  if (!number.ok) throw new ChainReadError(config.id, `no Multicall3 at ${multicall} (${number.error})`);
  if (!timestamp.ok) throw new ChainReadError(config.id, `no Multicall3 at ${multicall} (${timestamp.error})`);
  return plan.decode(results.slice(blockCalls.length), { number: number.value as bigint, timestamp: timestamp.value as bigint });
}

function decode(call: PlannedCall, raw: Result3): CallResult {
  if (!raw.success) {
    return {
      ok: false,
      error: `reverted${raw.returnData !== '0x' ? ` (${raw.returnData.slice(0, 10)})` : ''}`,
      revertData: raw.returnData,
    };
  }
  if (raw.returnData === '0x') return { ok: false, error: `no data returned (no contract at ${call.address}?)` };
  try {
    const value = decodeResult(call.abi, call.functionName, raw.returnData);
    return { ok: true, value };
  } catch (error) {
    return { ok: false, error: `undecodable result: ${errorText(error)}` };
  }
}

/** Checksummed, de-duplicated (first occurrence kept, order kept). */
export function uniqueAddresses(addresses: Iterable<string>): Address[] {
  const seen = new Set<Address>();
  for (const a of addresses) seen.add(getAddress(a));
  return [...seen];
}
