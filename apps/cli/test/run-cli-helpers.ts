import { randomBytes } from 'node:crypto';
import { runCli } from '../src/run-cli';

export interface CliRun {
  code: number;
  out: string;
  err: string;
}

/** Runs the CLI in-process and captures what it writes. */
export async function runCapture(argv: string[], env: NodeJS.ProcessEnv): Promise<CliRun> {
  let out = '';
  let err = '';
  const code = await runCli(argv, env, {
    out: (text) => {
      out += text;
    },
    err: (text) => {
      err += text;
    },
  });
  return { code, out, err };
}

export const NATS_URL = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
export const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

/** A subject prefix no other test run or stack uses. */
export function randomSubjectPrefix(): string {
  return `test_${randomBytes(6).toString('hex')}`;
}

/** An email nobody else in the test database has. */
export function randomEmail(): string {
  return `op_${randomBytes(4).toString('hex')}@Example.com`;
}
