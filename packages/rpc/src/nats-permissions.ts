import { Logger } from '@nestjs/common';
import { Events, type NatsConnection } from 'nats';

/** What the server refused: a publish to, or a subscription on, `subject`. */
export interface PermissionViolation {
  operation: 'publish' | 'subscription';
  subject: string;
  queue?: string | undefined;
}

/** The server refused a publish this process made (infra/nats/auth.conf does not allow it). */
export class PublishRefusedError extends Error {
  override readonly name = 'PublishRefusedError';
  readonly code = 'PERMISSIONS_VIOLATION';

  constructor(readonly subject: string) {
    super(`NATS refused the publish to ${subject}: this connection's user may not publish there (permissions violation)`);
  }
}

const watches = new WeakMap<NatsConnection, PermissionWatch>();

/**
 * The permission violations the server reports on one connection. NATS never fails a publish or a
 * subscribe call: it answers a refused one with `-ERR 'Permissions Violation …'`, which nats.js
 * turns into an `error` status on the connection, after the fact. Unwatched, a refused publish is
 * lost without a trace (a revocation that never reached the other gateways). So every connection
 * of the platform gets one watch: it logs each violation, and lets a publisher learn whether its
 * own publish was refused (`publishConfirmed`).
 */
export class PermissionWatch {
  private readonly listeners = new Set<(violation: PermissionViolation) => void>();

  private constructor(
    private readonly nc: NatsConnection,
    private readonly logger: Logger,
  ) {
    void this.watch();
  }

  /** The connection's watch, started on first use (`label` names the connection in the log). */
  static of(nc: NatsConnection, label = 'nats'): PermissionWatch {
    let watch = watches.get(nc);
    if (watch === undefined) {
      watch = new PermissionWatch(nc, new Logger(`nats:${label}`));
      watches.set(nc, watch);
    }
    return watch;
  }

  /** Calls `listener` with every violation from now on; returns the function that stops it. */
  onViolation(listener: (violation: PermissionViolation) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Publishes (`publish` sends on `subject`), then waits for the server's round trip (flush). The
   * server answers in order, so a refusal (`-ERR`) arrives before the flush's PONG; its status
   * then reaches this watch through a few promise hops, all run before the next macrotask. So
   * after the flush and one `setImmediate`, no refusal means the server took the message.
   * Rejects with `PublishRefusedError` when it was refused, or when the flush takes longer than
   * `timeoutMs`.
   */
  async publishConfirmed(subject: string, publish: () => void, timeoutMs: number): Promise<void> {
    let refused = false;
    const stop = this.onViolation((v) => {
      if (v.operation === 'publish' && v.subject === subject) refused = true;
    });
    try {
      publish();
      await withTimeout(this.nc.flush(), timeoutMs, `NATS did not confirm the publish to ${subject} within ${timeoutMs} ms`);
      await new Promise<void>((resolve) => setImmediate(resolve));
      if (refused) throw new PublishRefusedError(subject);
    } finally {
      stop();
    }
  }

  private async watch(): Promise<void> {
    for await (const status of this.nc.status()) {
      if (status.type !== Events.Error || status.data !== 'PERMISSIONS_VIOLATION') continue;
      const context = status.permissionContext as { operation: string; subject: string; queue?: string } | undefined;
      if (context === undefined) {
        this.logger.error('NATS reported a permissions violation without naming the subject');
        continue;
      }
      const violation: PermissionViolation = {
        operation: context.operation === 'subscription' ? 'subscription' : 'publish',
        subject: context.subject,
        queue: context.queue,
      };
      const queue = violation.queue === undefined ? '' : ` in queue group ${violation.queue}`;
      this.logger.error(
        `NATS refused ${violation.operation === 'publish' ? 'a publish to' : 'a subscription on'} ${violation.subject}${queue}: ` +
          "this app's NATS user is not allowed it (infra/nats/auth.conf)",
      );
      for (const listener of [...this.listeners]) listener(violation);
    }
  }
}

function withTimeout<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(message)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
