// The dialog confirming a webhook's deletion.
import { confirmDialog } from './confirm-dialog.js';

/** Returns open(webhook); "Delete webhook" deletes it, reports it, then calls afterDelete(). */
export function deleteWebhookDialog(view, afterDelete) {
  return confirmDialog(
    view,
    {
      id: 'delete-webhook',
      title: 'Delete this webhook?',
      confirmLabel: 'Delete webhook',
      describe: (webhook) =>
        `Deleting the webhook for ${webhook.url} is immediate and permanent: no more events are sent to it, ` +
        'events still queued for it are dropped, and its delivery record is deleted.',
      request: (webhook) => ['DELETE', `/webhooks/${encodeURIComponent(webhook.id)}`],
      done: (webhook) => `Webhook for ${webhook.url} deleted.`,
    },
    afterDelete,
  );
}
