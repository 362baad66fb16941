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

/** Above this, a dump is not made one string (V8's strings end near 512 MiB): see `withServedGenesis`. */
const LARGE_DUMP_BYTES = 256 * 2 ** 20;

/**
 * A large dump (the scale world's) with only the served genesis kept, without parsing it whole:
 * only its top-level `blocks` array (the first such key: `block`, `accounts` and `best_block_number`
 * come before it and hold no such text) is parsed, filtered and spliced back between the bytes around it.
 */
function withServedGenesis(raw: Buffer, served: (b: DumpedBlock) => boolean): Buffer {
  const key = Buffer.from('"blocks":[');
  const start = raw.indexOf(key);
  if (start < 0) throw new Error('anvil_dumpState: no blocks array');
  // the array's end: its closing bracket, strings (with their escapes) skipped
  let depth = 0;
  let end = -1;
  for (let i = start + key.length - 1, inString = false; i < raw.length && end < 0; i++) {
    const c = raw[i]!;
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) depth++;
    else if ((c === 0x5d || c === 0x7d) && --depth === 0) end = i + 1;
  }
  if (end < 0) throw new Error('anvil_dumpState: the blocks array does not end');
  const blocks = (JSON.parse(raw.subarray(start + key.length - 1, end).toString('utf8')) as DumpedBlock[]).filter(served);
  return Buffer.concat([raw.subarray(0, start), Buffer.from(`"blocks":${JSON.stringify(blocks)}`), raw.subarray(end)]);
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
  const raw = gunzipSync(Buffer.from(hex.slice(2), 'hex'));
  const servedAt = BigInt(genesis.timestamp);
  const served = (b: DumpedBlock) => BigInt(b.header.number) !== 0n || BigInt(b.header.timestamp) === servedAt;
  let out: Buffer | string;
  if (raw.length < LARGE_DUMP_BYTES) {
    const dump = JSON.parse(raw.toString('utf8')) as AnvilDump;
    if (dump.blocks) dump.blocks = dump.blocks.filter(served);
    out = JSON.stringify(dump);
  } else out = withServedGenesis(raw, served);
  mkdirSync(dirname(path), { recursive: true });
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, out);
  renameSync(tmp, path);
}
