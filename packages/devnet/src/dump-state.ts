import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { gunzipSync } from 'node:zlib';

/**
 * Saves a running anvil's whole state now (anvil_dumpState: gzipped JSON, hex) as the JSON that
 * `--load-state` reads. Unlike `--dump-state`, which writes only when anvil exits cleanly, this
 * survives a later crash or SIGKILL.
 */
export async function saveAnvilState(rpcUrl: string, path: string): Promise<void> {
  const response = await fetch(rpcUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'anvil_dumpState', params: [] }),
  });
  const body = (await response.json()) as { result?: string; error?: { message: string } };
  if (!body.result) throw new Error(`anvil_dumpState failed: ${body.error?.message ?? 'no result'}`);
  const json = gunzipSync(Buffer.from(body.result.slice(2), 'hex'));
  mkdirSync(dirname(path), { recursive: true });
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, json);
  renameSync(tmp, path);
}
