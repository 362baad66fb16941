import { ApiKeyRepository } from '@credit/db/api-key-repository';
import { EXIT_OK, NotFoundError } from '../cli-errors';
import { parseFlags, parseKeyId, requireFlag } from '../cli-flags';
import { note, printJson } from '../cli-io';
import type { Command } from '../command';
import { publishKeyRevoked } from '../revocation-publisher';

const NAME = 'keys:revoke';

/**
 * Revokes a key for good, in Postgres, then broadcasts the revocation on NATS so that every
 * gateway drops the key from its cache at once. When NATS cannot be reached the revocation
 * still stands; gateways then stop accepting the key when their cache entry expires.
 */
export const keysRevoke: Command = {
  name: NAME,
  usage: `${NAME} --key-id <key_…>`,
  summary: 'revoke a key (permanent) and tell every gateway at once',
  async run(args, context) {
    const flags = parseFlags(NAME, args, ['key-id']);
    const keyId = parseKeyId(NAME, requireFlag(NAME, flags, 'key-id'));
    const { io } = context;

    const revoked = await new ApiKeyRepository(context.db()).revoke(keyId);
    if (revoked === null) throw new NotFoundError(`no key with id ${keyId}`);
    if (revoked.alreadyRevoked) {
      note(io, `key ${keyId} was already revoked; broadcasting the revocation again`);
    }

    const config = context.config();
    try {
      const subject = await publishKeyRevoked(
        { key_id: revoked.keyId, key_hash: revoked.keyHash },
        { natsUrl: config.NATS_URL, subjectPrefix: config.NATS_SUBJECT_PREFIX },
      );
      note(io, `gateways notified on ${subject}`);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      note(
        io,
        `warning: key ${keyId} is revoked in the database, but the revocation could not be broadcast ` +
          `on NATS (${config.NATS_URL}: ${reason}); gateways will drop the key when their cache entry expires`,
      );
    }
    printJson(io, { key_id: revoked.keyId, status: 'revoked' });
    return EXIT_OK;
  },
};
