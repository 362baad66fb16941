// The panel showing a new key once, with a quickstart (quickstart.js).
import { h } from '../dom.js';
import { quickstart } from './quickstart.js';

/**
 * The shown-once key. Its copies live in this panel only (the textarea's value, the snippets):
 * "Done", a re-render (navigation) or leaving the page (pagehide) clears them and removes the panel.
 * The key sits in a wrapping textarea, so all of it is visible on a phone.
 */
export function showNewKey(slot, name, key, afterDismiss) {
  const value = h('textarea', {
    id: 'new-key',
    class: 'key-value',
    rows: 2,
    readonly: true,
    spellcheck: 'false',
    autocomplete: 'off',
    'data-testid': 'new-key',
  });
  value.setAttribute('aria-describedby', 'new-key-warning');
  value.value = key; // the property, not the attribute or a text node: the key stays out of the markup
  const copyStatus = h('p', { class: 'copy-status', 'aria-live': 'polite' });
  const copyKey = () => copyText(key, value, copyStatus);
  const panel = h(
    'section',
    { class: 'new-key', 'aria-labelledby': 'new-key-title' },
    h('h2', { id: 'new-key-title' }, `Your new key: ${name}`),
    h('p', { id: 'new-key-warning', class: 'warning' }, 'This is the only time the key is shown. Store it now.'),
    h('label', { for: 'new-key' }, 'API key'),
    h('div', { class: 'copy-row' }, value, h('button', { type: 'button', class: 'button', onclick: copyKey }, 'Copy')),
    copyStatus,
    h('button', { type: 'button', class: 'button button--primary', onclick: dismiss }, 'Done'),
    quickstart(key, copyText),
  );
  function dismiss() {
    dropNewKeys();
    afterDismiss();
  }
  dropNewKeys();
  slot.append(panel);
  while (value.scrollHeight > value.clientHeight && value.rows < 8) value.rows += 1; // no field-sizing: grow to fit
  // The panel's top at the screen's top: the key and Done in view together, on a phone too.
  panel.scrollIntoView({ block: 'start' });
  value.focus({ preventScroll: true });
  value.select();
}

/** Clears and removes every shown-once panel (a new key's, a new webhook's secret: both are `.new-key`). */
export function dropNewKeys() {
  for (const panel of document.querySelectorAll('.new-key')) {
    panel.querySelector('textarea').value = '';
    panel.replaceChildren();
    panel.remove();
  }
}

/** Copies `text`; without clipboard access (insecure context, permission denied) selects `source` for a manual copy. */
export async function copyText(text, source, status) {
  try {
    await navigator.clipboard.writeText(text);
    status.textContent = 'Copied to the clipboard.';
  } catch {
    source.focus();
    if (typeof source.select === 'function') source.select();
    else window.getSelection().selectAllChildren(source);
    status.textContent = 'Selected: press Ctrl+C (⌘C on a Mac) to copy it.';
  }
}
