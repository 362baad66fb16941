import { redactUrl } from '@credit/config/redact-url';
import type { EventName, EventPayload } from '@credit/contracts/events';
import { natsAuthOf } from '@credit/rpc/nats-connection';
import { EXIT_NOT_BROADCAST, EXIT_OK } from './cli-errors';
import { note } from './cli-io';
import type { CommandContext } from './command';
import { publishEvent } from './event-publisher';

/**
 * Tells every gateway of a change already committed to Postgres; resolves to the command's exit
 * code. When NATS cannot be reached, or refuses the publish (the CLI's NATS user may not publish
 * the event), the change still stands: the operator is told, with exit code 3, that gateways pick
 * it up only when their cached entry expires (`what` names the change, e.g. "key key_… is revoked").
 */
export async function broadcast<E extends EventName>(
  context: CommandContext,
  name: E,
  event: EventPayload<E>,
  what: string,
): Promise<number> {
  const config = context.config();
  try {
    const subject = await publishEvent(name, event, {
      natsUrl: config.NATS_URL,
      natsAuth: natsAuthOf(config),
      subjectPrefix: config.NATS_SUBJECT_PREFIX,
    });
    note(context.io, `gateways notified on ${subject}`);
    return EXIT_OK;
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    note(
      context.io,
      `error: ${what} in the database, but it could not be broadcast on NATS (${redactUrl(config.NATS_URL)}: ${reason}); ` +
        'gateways apply it when their cache entry expires',
    );
    return EXIT_NOT_BROADCAST;
  }
}
