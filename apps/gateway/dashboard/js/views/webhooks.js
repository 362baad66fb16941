// The webhooks page: create a webhook (its secret shown once, webhook-secret.js), list them with
// their latest deliveries, send a test ping, delete one (delete-webhook-dialog.js).
import { ApiError, api, reportError } from '../api.js';
import { els, h, setTitle, showMessage } from '../dom.js';
import { field, onSubmit } from '../forms.js';
import { timeEl } from '../format.js';
import { isCurrent } from '../state.js';
import { loading, refreshButton, scrollBox, showLoadFailure, table } from '../widgets.js';
import { deleteWebhookDialog } from './delete-webhook-dialog.js';
import { showWebhookSecret } from './webhook-secret.js';

/** How long the page looks for a test ping's delivery before leaving it to Refresh. */
const PING_WAIT_MS = 15_000;
const PING_POLL_MS = 1_000;
const URL_HINT = 'Where the events are POSTed: https, on a public address.';

export function webhooksView(view, generation) {
  setTitle('Webhooks');
  const secretSlot = h('div');
  const listBox = h('div', { 'data-testid': 'webhooks-list' }, loading('webhooks'));
  const listHeading = h('h2', { id: 'webhooks-title', tabindex: -1 }, 'Your webhooks');
  const confirmDelete = deleteWebhookDialog(view, afterDelete);
  const fail = (error) => isCurrent(generation) && reportError(error);
  const firstLoad = () =>
    loadWebhooks().catch((error) => {
      if (isCurrent(generation)) showLoadFailure(listBox, 'your webhooks', error, retry);
    });
  const retry = () => {
    listBox.replaceChildren(loading('webhooks'));
    return firstLoad();
  };

  /** Reads the list and shows it (focus stays on the same button across the redraw); the webhooks, or null. */
  async function loadWebhooks(announce) {
    if (!isCurrent(generation)) return null;
    const { webhooks } = await api('GET', '/webhooks');
    if (!isCurrent(generation)) return null;
    const focused = document.activeElement && listBox.contains(document.activeElement) && document.activeElement.dataset.focusKey;
    listBox.replaceChildren(webhookList(webhooks, { test: sendTest, remove: confirmDelete }));
    const again = focused && listBox.querySelector(`[data-focus-key="${focused}"]`);
    if (again) again.focus();
    if (announce) showMessage('Webhook list refreshed.', 'info');
    return webhooks;
  }

  // Refresh even after a failed delete (a 404 means the list was stale), then put focus on the list.
  async function afterDelete() {
    await loadWebhooks().catch(fail);
    if (isCurrent(generation)) listHeading.focus();
  }

  /**
   * Queues a ping, then reloads the list until its delivery shows (or PING_WAIT_MS has passed). The
   * button stays enabled (disabling it would drop its focus); a second press while one is being
   * queued does nothing.
   */
  const pinging = new Set();
  async function sendTest(webhook) {
    if (pinging.has(webhook.id)) return;
    pinging.add(webhook.id);
    let eventId;
    try {
      ({ event_id: eventId } = await api('POST', `/webhooks/${encodeURIComponent(webhook.id)}/test`));
    } catch (error) {
      return fail(error);
    } finally {
      pinging.delete(webhook.id);
    }
    if (!isCurrent(generation)) return;
    showMessage(`Test ping ${eventId} queued for ${webhook.url}. Its delivery appears under the webhook in a few seconds.`, 'success');
    const deadline = Date.now() + PING_WAIT_MS;
    while (isCurrent(generation) && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, PING_POLL_MS));
      const webhooks = await loadWebhooks().catch(fail);
      if (!webhooks || webhooks.some((w) => w.deliveries.some((d) => d.event_id === eventId))) return;
    }
  }

  const form = h(
    'form',
    { class: 'stack webhook-form', 'aria-labelledby': 'create-title' },
    field('url', 'Endpoint URL', { type: 'text', inputmode: 'url', required: true, maxlength: 2048, autocomplete: 'off' }, URL_HINT),
    addressesField(),
    field(
      'min_change',
      'Minimum change',
      { type: 'number', required: true, min: 1, max: 700, step: 1, value: 10, inputmode: 'numeric' },
      'Score points (1 to 700) a change must reach to be sent; scores run from 300 to 1000.',
    ),
    h('p', { class: 'hint' }, 'Creating a webhook costs 1 CU per address watched; a test ping costs 1 CU.'),
    h('button', { type: 'submit', class: 'button button--primary' }, 'Create webhook'),
  );
  const addresses = form.querySelector('#field-addresses');
  const addressesError = form.querySelector('#field-addresses-error');
  const showAddressesError = (text) => {
    addressesError.textContent = text;
    addresses.toggleAttribute('aria-invalid', Boolean(text));
    if (text) {
      addresses.setAttribute('aria-invalid', 'true');
      addresses.focus();
    }
  };
  onSubmit(
    form,
    async (data) => {
      showAddressesError('');
      const list = String(data.get('addresses'))
        .split(/[\s,;]+/)
        .filter(Boolean);
      if (list.length === 0) return showAddressesError('Enter at least one address to watch.');
      const body = { url: String(data.get('url')).trim(), addresses: list, min_change: Number(data.get('min_change')) };
      const created = await api('POST', '/webhooks', body).catch((error) => {
        showAddressesError(addressesProblem(error)); // forms.js places the other fields' problems
        throw error;
      });
      if (!isCurrent(generation)) return;
      form.reset();
      showMessage('Webhook created. Copy its signing secret now: it will not be shown again.', 'success');
      showWebhookSecret(secretSlot, created, () => {
        // The "Copy … now" banner goes with the secret it was about.
        if (els.message.textContent.includes('not be shown again')) showMessage(null);
        form.elements.url.focus();
      });
      await loadWebhooks();
    },
    (error) => {
      if (!addressesProblem(error)) return false;
      showMessage(null); // shown under the addresses' box already
      return true;
    },
  );

  view.append(
    h('h1', {}, 'Webhooks'),
    h(
      'p',
      { class: 'muted' },
      'A webhook sends your endpoint a signed POST when a watched address’s score moves by at least its minimum change.',
    ),
    h('section', { class: 'card' }, h('h2', { id: 'create-title' }, 'Create a webhook'), form),
    secretSlot,
    h('section', { class: 'card' }, h('div', { class: 'section-head' }, listHeading, refreshButton(loadWebhooks, fail)), listBox),
  );
  firstLoad();
}

/** What a 400 says of the addresses (`addresses: …`, `addresses.2: …`), as a sentence; '' when nothing. */
function addressesProblem(error) {
  if (!(error instanceof ApiError) || error.status !== 400) return '';
  const about = error.message
    .split('; ')
    .map((part) => /^addresses(?:\.(\d+))?: (.+)$/.exec(part))
    .find(Boolean);
  if (!about) return '';
  const text = about[2].charAt(0).toUpperCase() + about[2].slice(1);
  return (about[1] === undefined ? text : `Address ${Number(about[1]) + 1}: ${text}`).replace(/([^.!?)])$/, '$1.');
}

/** The addresses' box: a field like forms.js builds, with a textarea (its errors are set by the view). */
function addressesField() {
  return h(
    'div',
    { class: 'field' },
    h('label', { for: 'field-addresses' }, 'Addresses'),
    h(
      'p',
      { id: 'field-addresses-hint', class: 'hint' },
      'The addresses to watch, one a line: 0x and 40 hex digits (resolve names first).',
    ),
    h('textarea', {
      id: 'field-addresses',
      name: 'addresses',
      class: 'textarea',
      rows: 3,
      required: true,
      spellcheck: 'false',
      autocomplete: 'off',
      'aria-describedby': 'field-addresses-hint field-addresses-error',
    }),
    h('p', { id: 'field-addresses-error', class: 'field-error', 'aria-live': 'polite', 'data-testid': 'field-addresses-error' }),
  );
}

function webhookList(webhooks, actions) {
  if (webhooks.length === 0) return h('p', { class: 'muted' }, 'No webhooks yet. Create one above to hear about score changes.');
  // The API lists oldest first; show the newest first.
  return h(
    'div',
    { class: 'webhooks' },
    webhooks
      .slice()
      .reverse()
      .map((webhook) => webhookCard(webhook, actions)),
  );
}

function webhookCard(webhook, actions) {
  const titleId = `webhook-${webhook.id}`;
  const test = h(
    'button',
    {
      type: 'button',
      class: 'button',
      'aria-describedby': titleId,
      'data-focus-key': `test-${webhook.id}`,
      onclick: () => actions.test(webhook),
    },
    'Send test',
  );
  const remove = h(
    'button',
    {
      type: 'button',
      class: 'button button--danger-quiet',
      'aria-describedby': titleId,
      'data-focus-key': `delete-${webhook.id}`,
      onclick: () => actions.remove(webhook),
    },
    'Delete',
  );
  const fact = (name, label, content) => [h('dt', {}, label), h('dd', { 'data-field': name }, content)];
  return h(
    'article',
    { class: 'webhook', 'data-webhook-id': webhook.id, 'aria-labelledby': titleId },
    h(
      'div',
      { class: 'webhook__head' },
      h('h3', { id: titleId, class: 'webhook-url' }, webhook.url),
      h('div', { class: 'webhook__actions' }, test, remove),
    ),
    h(
      'dl',
      { class: 'webhook__facts' },
      fact(
        'addresses',
        webhook.addresses.length === 1 ? 'Address' : `Addresses (${webhook.addresses.length})`,
        h(
          'ul',
          { class: 'address-list' },
          webhook.addresses.map((address) => h('li', {}, h('code', {}, address))),
        ),
      ),
      fact('min-change', 'Minimum change', `${webhook.min_change} points`),
      fact('created', 'Created', timeEl(webhook.created_at)),
      fact('id', 'Id', h('code', {}, webhook.id)),
    ),
    h('h4', { id: `deliveries-${webhook.id}` }, 'Recent deliveries'),
    deliveriesTable(webhook),
  );
}

function deliveriesTable(webhook) {
  if (webhook.deliveries.length === 0) {
    return h('p', { class: 'muted', 'data-testid': 'no-deliveries' }, 'No deliveries yet. Send a test to see one here.');
  }
  const row = (delivery) => {
    const cell = (col, content) => h('td', { 'data-col': col, 'data-label': LABELS[col] }, content);
    return h(
      'tr',
      { 'data-event-id': delivery.event_id },
      cell('event', [h('code', {}, delivery.event_id), ' ', h('span', { class: 'muted' }, eventNote(delivery))]),
      cell('result', result(delivery)),
      cell('duration', `${delivery.duration_ms} ms`),
      cell('time', timeEl(delivery.attempted_at)),
    );
  };
  const headings = Object.values(LABELS).map((label) => h('th', { scope: 'col' }, label));
  const deliveries = table(
    'deliveries-table',
    h('caption', { class: 'visually-hidden' }, `Latest delivery attempts to ${webhook.url}, newest first`),
    headings,
    webhook.deliveries.map(row),
  );
  deliveries.classList.add('table--cards', 'table--deliveries'); // a card an attempt on a phone
  return scrollBox(`deliveries-${webhook.id}`, deliveries);
}

/** The event's type, and which attempt this was when not the first. */
function eventNote(delivery) {
  return delivery.attempt === 1 ? delivery.event_type : `${delivery.event_type}, attempt ${delivery.attempt}`;
}

/** The endpoint's status code when it answered 2xx; otherwise what went wrong. */
function result(delivery) {
  if (delivery.error === null) return h('span', { class: 'badge badge--delivered' }, String(delivery.status_code));
  return h('span', { class: 'badge badge--failed' }, delivery.error);
}

const LABELS = { event: 'Event', result: 'Result', duration: 'Duration', time: 'Time' };
