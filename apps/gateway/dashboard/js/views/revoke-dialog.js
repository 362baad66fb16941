// The dialog confirming a key's revocation.
import { confirmDialog } from './confirm-dialog.js';

/** Returns open(key); "Revoke key" posts the revocation, reports it, then calls afterRevoke(). */
export function revokeDialog(view, afterRevoke) {
  return confirmDialog(
    view,
    {
      id: 'revoke',
      title: 'Revoke this key?',
      confirmLabel: 'Revoke key',
      describe: (key) =>
        `Revoking “${key.name}” (${key.start}…) is immediate and permanent: requests using it are refused from now on, and it cannot be undone.`,
      request: (key) => ['POST', `/keys/${encodeURIComponent(key.key_id)}/revoke`],
      done: (key) => `Key “${key.name}” revoked.`,
    },
    afterRevoke,
  );
}
