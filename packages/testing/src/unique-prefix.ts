import { randomBytes } from 'node:crypto';

/** A NATS subject prefix of its own for one test file, so parallel suites never answer each other. */
export function uniquePrefix(label = 't'): string {
  return `${label}${randomBytes(5).toString('hex')}`;
}
