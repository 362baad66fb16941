// The dialog confirming a key's revocation.
import { api, reportError, SessionEnded } from '../api.js';
import { h, showMessage } from '../dom.js';

/**
 * A modal <dialog> confirming a revocation; returns open(key). Escape or Cancel closes it
 * unchanged; "Revoke key" posts, closes, reports, then calls afterRevoke().
 */
export function revokeDialog(view, afterRevoke) {
  let current = null;
  let busy = false;
  const description = h('p', { id: 'revoke-description' });
  const cancel = h('button', { type: 'button', class: 'button', onclick: () => dialog.close() }, 'Cancel');
  const confirm = h('button', { type: 'button', class: 'button button--danger' }, 'Revoke key');
  const dialog = h(
    'dialog',
    { class: 'dialog', 'aria-labelledby': 'revoke-title', 'aria-describedby': 'revoke-description' },
    h('h2', { id: 'revoke-title' }, 'Revoke this key?'),
    description,
    h('div', { class: 'dialog__actions' }, cancel, confirm),
  );
  dialog.addEventListener('cancel', (event) => busy && event.preventDefault());
  confirm.addEventListener('click', async () => {
    const key = current;
    let failure = null;
    busy = confirm.disabled = cancel.disabled = true;
    try {
      await api('POST', `/keys/${encodeURIComponent(key.key_id)}/revoke`);
    } catch (error) {
      failure = error;
    }
    busy = confirm.disabled = cancel.disabled = false;
    if (failure instanceof SessionEnded) return; // the view is gone already
    dialog.close();
    if (failure) reportError(failure);
    else showMessage(`Key “${key.name}” revoked.`, 'success');
    await afterRevoke();
  });
  view.append(dialog);
  return (key) => {
    current = key;
    description.textContent = `Revoking “${key.name}” (${key.start}…) is immediate and permanent: requests using it are refused from now on, and it cannot be undone.`;
    dialog.showModal();
    cancel.focus();
  };
}
