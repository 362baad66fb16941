import type { EventName, EventPayload } from '@credit/contracts/events';
import { natsAuthOf } from '@credit/rpc/nats-connection';
import { note } from './cli-io';
import type { CommandContext } from './command';
import { publishEvent } from './event-publisher';

/**
 * Tells every gateway of a change already committed to Postgres. When NATS cannot be reached the
 * change still stands, and the operator is told that gateways pick it up when their cached entry
 * expires (`what` names the change, e.g. "key key_… is revoked").
 */
export async function broadcast<E extends EventName>(
  context: CommandContext,
  name: E,
  event: EventPayload<E>,
  what: string,
): Promise<void> {
  const config = context.config();
  try {
    const subject = await publishEvent(name, event, {
      natsUrl: config.NATS_URL,
      natsAuth: natsAuthOf(config),
      subjectPrefix: config.NATS_SUBJECT_PREFIX,
    });
    note(context.io, `gateways notified on ${subject}`);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    note(
      context.io,
      `warning: ${what} in the database, but it could not be broadcast on NATS (${config.NATS_URL}: ${reason}); ` +
        'gateways apply it when their cache entry expires',
    );
  }
}
