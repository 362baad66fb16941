// A modal dialog confirming an action that cannot be undone (revoking a key, deleting a webhook).
import { api, reportError, SessionEnded } from '../api.js';
import { h, showMessage } from '../dom.js';

/**
 * A modal <dialog>; returns open(item). Escape or Cancel closes it unchanged; the confirm button
 * sends `request(item)` ([method, path]), closes, reports (`done(item)` on success), then calls
 * after(). `id` prefixes the title's and description's element ids.
 */
export function confirmDialog(view, { id, title, confirmLabel, describe, request, done }, after) {
  let current = null;
  let busy = false;
  const description = h('p', { id: `${id}-description` });
  const cancel = h('button', { type: 'button', class: 'button', onclick: () => dialog.close() }, 'Cancel');
  const confirm = h('button', { type: 'button', class: 'button button--danger' }, confirmLabel);
  const dialog = h(
    'dialog',
    { class: 'dialog', 'aria-labelledby': `${id}-title`, 'aria-describedby': `${id}-description` },
    h('h2', { id: `${id}-title` }, title),
    description,
    h('div', { class: 'dialog__actions' }, cancel, confirm),
  );
  dialog.addEventListener('cancel', (event) => busy && event.preventDefault());
  confirm.addEventListener('click', async () => {
    const item = current;
    let failure = null;
    busy = confirm.disabled = cancel.disabled = true;
    try {
      await api(...request(item));
    } catch (error) {
      failure = error;
    }
    busy = confirm.disabled = cancel.disabled = false;
    if (failure instanceof SessionEnded) return; // the view is gone already
    dialog.close();
    if (failure) reportError(failure);
    else showMessage(done(item), 'success');
    await after();
  });
  view.append(dialog);
  return (item) => {
    current = item;
    description.textContent = describe(item);
    dialog.showModal();
    cancel.focus();
  };
}
