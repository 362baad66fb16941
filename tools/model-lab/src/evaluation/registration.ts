import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { ANDROMEDA_1_0 } from '@credit/score-model/andromeda/model-table';
import { protocolHash, tableHash } from './protocol';

/** What is registered before the held-out run: the table and the protocol it will be judged by. */
export interface Registration {
  model: 'andromeda_1.0';
  revision: string;
  tableHash: string;
  protocolHash: string;
  registeredAt: string;
}

export function currentRegistration(now = new Date()): Registration {
  return {
    model: 'andromeda_1.0',
    revision: ANDROMEDA_1_0.revision,
    tableHash: tableHash(),
    protocolHash: protocolHash(),
    registeredAt: now.toISOString(),
  };
}

export function writeRegistration(file: string): Registration {
  const registration = currentRegistration();
  writeFileSync(file, `${JSON.stringify(registration, null, 2)}\n`);
  return registration;
}

/**
 * Throws unless `file` registers the current table and protocol and is committed as it is (so the
 * registration predates the held-out run in the history). Returns the registration's commit.
 */
export function checkRegistration(file: string): string {
  if (!existsSync(file)) throw new Error(`${file} is missing: run \`pnpm model:register\` and commit it before the held-out run`);
  const registered = JSON.parse(readFileSync(file, 'utf8')) as Registration;
  const current = currentRegistration();
  if (registered.tableHash !== current.tableHash || registered.protocolHash !== current.protocolHash) {
    throw new Error(
      `${file} registers table ${registered.tableHash} and protocol ${registered.protocolHash}, but the current ones are ${current.tableHash} and ${current.protocolHash}`,
    );
  }
  const git = (...args: string[]) => execFileSync('git', args, { encoding: 'utf8' }).trim();
  if (git('status', '--porcelain', '--', file) !== '') throw new Error(`${file} has uncommitted changes: commit the registration first`);
  const commit = git('log', '-1', '--format=%H', '--', file);
  if (commit === '') throw new Error(`${file} is not committed: commit the registration first`);
  return commit;
}
