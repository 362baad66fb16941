import { ApiKeyRepository } from '@credit/db/api-key-repository';
import { NotFoundError } from '../cli-errors';
import { parseFlags, parseKeyId, requireFlag } from '../cli-flags';
import { note, printJson } from '../cli-io';
import type { Command } from '../command';
import { broadcast } from '../broadcast';

const NAME = 'keys:revoke';

/**
 * Revokes a key for good, in Postgres, then broadcasts the revocation on NATS so that every
 * gateway drops the key from its cache at once. When the broadcast fails the revocation still
 * stands (exit code 3); gateways then stop accepting the key when their cache entry expires.
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

    const code = await broadcast(context, 'apiKeyRevoked', { key_id: revoked.keyId, key_hash: revoked.keyHash }, `key ${keyId} is revoked`);
    printJson(io, { key_id: revoked.keyId, status: 'revoked' });
    return code;
  },
};
