import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { rpc } from './json-rpc';

interface DumpedBlock {
  header: { number: string; timestamp: string };
}

interface AnvilDump {
  blocks?: DumpedBlock[];
  [key: string]: unknown;
}

/**
 * Saves a running anvil's whole state now (anvil_dumpState: gzipped JSON, hex) as the JSON that
 * `--load-state` reads. Unlike `--dump-state`, which writes only when anvil exits cleanly, this
 * survives a later crash or SIGKILL. Written to a temporary file and renamed: a save cut short
 * leaves the previous one whole.
 *
 * anvil 1.7 keeps the genesis block it builds at start beside a loaded one, and dumps both; the
 * next load then serves whichever comes last in the (unordered) list. A second genesis would make
 * the same chain look replaced (the indexer ties a chain to its genesis hash), so only the genesis
 * the chain serves is kept.
 */
export async function saveAnvilState(rpcUrl: string, path: string): Promise<void> {
  const [hex, genesis] = await Promise.all([
    rpc<string>(rpcUrl, 'anvil_dumpState', []),
    rpc<{ timestamp: string }>(rpcUrl, 'eth_getBlockByNumber', ['0x0', false]),
  ]);
  if (!hex) throw new Error('anvil_dumpState failed: no result');
  const dump = JSON.parse(gunzipSync(Buffer.from(hex.slice(2), 'hex')).toString('utf8')) as AnvilDump;
  if (dump.blocks) {
    const servedAt = BigInt(genesis.timestamp);
    dump.blocks = dump.blocks.filter((b) => BigInt(b.header.number) !== 0n || BigInt(b.header.timestamp) === servedAt);
  }
  mkdirSync(dirname(path), { recursive: true });
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, JSON.stringify(dump));
  renameSync(tmp, path);
}
