import { rpc } from './json-rpc';

/** A block as the restart tests compare them: its number, timestamp and hash. */
export interface BlockHeader {
  number: number;
  timestamp: number;
  hash: string;
}

/** Every block of a chain, genesis to head (a devnet's chains are short). */
export async function blockList(rpcUrl: string): Promise<BlockHeader[]> {
  const head = Number(await rpc<string>(rpcUrl, 'eth_blockNumber', []));
  return Promise.all(
    Array.from({ length: head + 1 }, async (_, n) => {
      const b = await rpc<{ number: string; timestamp: string; hash: string }>(rpcUrl, 'eth_getBlockByNumber', [
        `0x${n.toString(16)}`,
        false,
      ]);
      return { number: Number(b.number), timestamp: Number(b.timestamp), hash: b.hash };
    }),
  );
}

/** Whether the blocks' timestamps never go back. */
export const timestampsNonDecreasing = (list: readonly BlockHeader[]): boolean =>
  list.every((b, i) => i === 0 || b.timestamp >= list[i - 1]!.timestamp);
