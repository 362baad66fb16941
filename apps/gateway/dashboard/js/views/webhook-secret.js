// The panel showing a new webhook's signing secret once, with how to verify a delivery.
import { h } from '../dom.js';
import { copyText, dropNewKeys } from './new-key.js';

/**
 * The shown-once secret, like a new key (new-key.js): its copies live in this panel only (the
 * textarea's value), and the panel is a `.new-key` one, so "Done", a re-render or leaving the page
 * (dropNewKeys) clears it.
 */
export function showWebhookSecret(slot, webhook, afterDismiss) {
  const value = h('textarea', {
    id: 'new-secret',
    class: 'key-value',
    rows: 2,
    readonly: true,
    spellcheck: 'false',
    autocomplete: 'off',
    'data-testid': 'new-secret',
  });
  value.setAttribute('aria-describedby', 'new-secret-warning');
  value.value = webhook.secret; // the property, not the attribute or a text node: the secret stays out of the markup
  const copyStatus = h('p', { class: 'copy-status', 'aria-live': 'polite' });
  const panel = h(
    'section',
    { class: 'new-key', 'aria-labelledby': 'new-secret-title' },
    h('h2', { id: 'new-secret-title' }, 'Your new webhook’s signing secret'),
    h('p', { class: 'webhook-url' }, h('code', {}, webhook.url)),
    h('p', { id: 'new-secret-warning', class: 'warning' }, 'This is the only time the secret is shown. Store it now.'),
    h('label', { for: 'new-secret' }, 'Signing secret'),
    h(
      'div',
      { class: 'copy-row' },
      value,
      h('button', { type: 'button', class: 'button', onclick: () => copyText(webhook.secret, value, copyStatus) }, 'Copy'),
    ),
    copyStatus,
    h(
      'p',
      { class: 'hint' },
      'Every delivery is signed with it as Standard Webhooks specify: verify the raw body with the ',
      h('code', {}, 'webhook-id'),
      ', ',
      h('code', {}, 'webhook-timestamp'),
      ' and ',
      h('code', {}, 'webhook-signature'),
      ' headers, e.g. with the npm package ',
      h('code', {}, 'standardwebhooks'),
      '. To change it, delete the webhook and create another.',
    ),
    h('button', { type: 'button', class: 'button button--primary', onclick: dismiss }, 'Done'),
  );
  function dismiss() {
    dropNewKeys();
    afterDismiss();
  }
  dropNewKeys();
  slot.append(panel);
  while (value.scrollHeight > value.clientHeight && value.rows < 6) value.rows += 1; // no field-sizing: grow to fit
  panel.scrollIntoView({ block: 'start' });
  value.focus({ preventScroll: true });
  value.select();
}
