/**
 * The metering's Redis keys, all under `[<stack prefix>:]meter:`, so side-by-side stacks and test
 * suites never share a counter (the stack prefix is NATS_SUBJECT_PREFIX, as for the wallet cache).
 *
 * - `…:cu:<account>:<YYYY-MM>` hash: `used` and `op:<operation>`, the month's CU. It exists once
 *   seeded (from the ledger), so a missing counter is never read as zero.
 * - `…:rl:<policy>:<account>` hash: a token bucket (`t` tokens at `at` ms).
 * - `…:outbox:v2` stream: every charge and refund as a COPY line (ledger-line.ts), appended by the
 *   same script that moved the counter, kept until the ledger writer has written it.
 * - `…:ledger-v2:*`: the BullMQ queue that writes the outbox into Postgres.
 *
 * The outbox and its queue carry their format's version: the JSON outbox of earlier builds was
 * `…:outbox` with the queue `ledger`, so a writer never reads entries in a format it does not know.
 * An upgrade from such a build lets the old gateways drain their outbox before they stop.
 */
export class MeterKeys {
  readonly root: string;

  constructor(stackPrefix: string) {
    this.root = stackPrefix ? `${stackPrefix}:meter` : 'meter';
  }

  counter(accountId: string, period: string): string {
    return `${this.root}:cu:${accountId}:${period}`;
  }

  bucket(policy: string, subject: string): string {
    return `${this.root}:rl:${policy}:${subject}`;
  }

  get outbox(): string {
    return `${this.root}:outbox:v2`;
  }

  /** BullMQ's key prefix; the queue is LEDGER_QUEUE. */
  get queuePrefix(): string {
    return this.root;
  }
}

export const LEDGER_QUEUE = 'ledger-v2';
export const OUTBOX_GROUP = 'ledger';
