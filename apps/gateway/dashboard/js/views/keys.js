// The keys page: create a key (shown once, new-key.js), list them, revoke one (revoke-dialog.js).
import { api, reportError } from '../api.js';
import { els, h, setTitle, showMessage } from '../dom.js';
import { field, onSubmit } from '../forms.js';
import { timeEl } from '../format.js';
import { isCurrent } from '../state.js';
import { loading, refreshButton, scrollBox, showLoadFailure, table } from '../widgets.js';
import { showNewKey } from './new-key.js';
import { revokeDialog } from './revoke-dialog.js';

export function keysView(view, generation) {
  setTitle('Keys');
  const newKeySlot = h('div');
  const tableBox = scrollBox('keys-title', loading('keys'));
  const listHeading = h('h2', { id: 'keys-title', tabindex: -1 }, 'Your keys');
  const confirmRevoke = revokeDialog(view, afterRevoke);
  const fail = (error) => isCurrent(generation) && reportError(error);
  const firstLoad = () =>
    loadKeys().catch((error) => {
      if (isCurrent(generation)) showLoadFailure(tableBox, 'your keys', error, retry);
    });
  const retry = () => {
    tableBox.replaceChildren(loading('keys'));
    return firstLoad();
  };

  async function loadKeys(announce) {
    if (!isCurrent(generation)) return;
    const { keys } = await api('GET', '/keys');
    if (!isCurrent(generation)) return;
    tableBox.replaceChildren(keysTable(keys, confirmRevoke));
    if (announce) showMessage('Key list refreshed.', 'info');
  }

  // Refresh even after a failed revoke (a 404 means the list was stale), then put focus on the list.
  async function afterRevoke() {
    await loadKeys().catch(fail);
    if (isCurrent(generation)) listHeading.focus();
  }

  const nameHint = 'Something to tell keys apart, e.g. “production server”.';
  const form = h(
    'form',
    { class: 'inline-form', 'aria-labelledby': 'create-title' },
    field('name', 'Name', { type: 'text', required: true, maxlength: 100, autocomplete: 'off' }, nameHint),
    h('button', { type: 'submit', class: 'button button--primary' }, 'Create key'),
  );
  onSubmit(form, async (data) => {
    const created = await api('POST', '/keys', { name: String(data.get('name')).trim() });
    if (!isCurrent(generation)) return;
    form.reset();
    showMessage(`Key “${created.name}” created. Copy it now: it will not be shown again.`, 'success');
    showNewKey(newKeySlot, created.name, created.key, () => {
      // The "Copy it now" banner goes with the key it was about.
      if (els.message.textContent.includes('Copy it now')) showMessage(null);
      form.elements.name.focus();
    });
    await loadKeys();
  });

  view.append(
    h('h1', {}, 'API keys'),
    h('section', { class: 'card' }, h('h2', { id: 'create-title' }, 'Create a key'), form),
    newKeySlot,
    h('section', { class: 'card' }, h('div', { class: 'section-head' }, listHeading, refreshButton(loadKeys, fail)), tableBox),
  );
  firstLoad();
}

function keysTable(keys, confirmRevoke) {
  const row = (key) => {
    // data-label names a cell where the phone's card layout (css/tables.css) has no column heading.
    const cell = (col, content) =>
      h('td', { 'data-col': col, 'data-label': LABELS[col], id: col === 'name' ? `name-${key.key_id}` : null }, content);
    const revoke = h(
      'button',
      {
        type: 'button',
        class: 'button button--danger-quiet',
        'aria-describedby': `name-${key.key_id}`,
        onclick: () => confirmRevoke(key),
      },
      'Revoke',
    );
    return h(
      'tr',
      { 'data-key-id': key.key_id },
      cell('name', key.name),
      cell('start', h('code', {}, `${key.start}…`)),
      cell('created', timeEl(key.created_at)),
      cell('last-used', timeEl(key.last_used_at)),
      cell('status', h('span', { class: `badge badge--${key.status}` }, key.status)),
      h('td', { class: 'actions' }, key.status === 'active' && revoke),
    );
  };
  const headings = Object.values(LABELS).map((label) => h('th', { scope: 'col' }, label));
  headings.push(h('th', { scope: 'col' }, h('span', { class: 'visually-hidden' }, 'Actions')));
  const rows = keys.slice().reverse().map(row); // the API lists oldest first; show the newest first
  const empty = h('tr', {}, h('td', { colspan: 6, class: 'muted' }, 'No keys yet. Create one above to start calling the API.'));
  const keysTable = table(
    'keys-table',
    h('caption', { class: 'visually-hidden' }, 'API keys, newest first'),
    headings,
    rows.length ? rows : empty,
  );
  keysTable.classList.add('table--cards'); // a card a key on a phone: name, key, dates, status and Revoke together
  return keysTable;
}

const LABELS = { name: 'Name', start: 'Key', created: 'Created', 'last-used': 'Last used', status: 'Status' };
