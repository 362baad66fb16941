// The panel showing a new key once.
import { h } from '../dom.js';

/**
 * The shown-once key. Its only copy lives in this panel's input: "Done", a re-render (navigation)
 * or leaving the page (pagehide) clears the value and removes the panel.
 */
export function showNewKey(slot, name, key, afterDismiss) {
  const input = h('input', {
    id: 'new-key',
    class: 'key-value',
    type: 'text',
    readonly: true,
    spellcheck: 'false',
    'data-testid': 'new-key',
  });
  input.setAttribute('aria-describedby', 'new-key-warning');
  input.value = key; // the property, not the attribute: the key stays out of the markup
  const copyStatus = h('p', { class: 'copy-status', 'aria-live': 'polite' });
  const panel = h(
    'section',
    { class: 'new-key', 'aria-labelledby': 'new-key-title' },
    h('h2', { id: 'new-key-title' }, `Your new key: ${name}`),
    h('p', { id: 'new-key-warning', class: 'warning' }, 'This is the only time the key is shown. Store it now.'),
    h('label', { for: 'new-key' }, 'API key'),
    h(
      'div',
      { class: 'copy-row' },
      input,
      h('button', { type: 'button', class: 'button', onclick: () => copyKey(input, copyStatus) }, 'Copy'),
    ),
    copyStatus,
    h('button', { type: 'button', class: 'button button--primary', onclick: dismiss }, 'Done'),
  );
  function dismiss() {
    dropNewKeys();
    afterDismiss();
  }
  dropNewKeys();
  slot.append(panel);
  input.focus();
  input.select();
}

export function dropNewKeys() {
  for (const panel of document.querySelectorAll('.new-key')) {
    panel.querySelector('input').value = '';
    panel.remove();
  }
}

async function copyKey(input, status) {
  try {
    await navigator.clipboard.writeText(input.value);
    status.textContent = 'Copied to the clipboard.';
  } catch {
    // No clipboard access (insecure context, permission denied): select it for a manual copy.
    input.focus();
    input.select();
    status.textContent = 'The key is selected: press Ctrl+C (⌘C on a Mac) to copy it.';
  }
}
