// Pieces the signed-in pages (keys, usage) share: a Refresh button and tables.
import { h } from './dom.js';

/** A "Refresh" button calling reload(true), disabled while it runs. */
export function refreshButton(reload, fail) {
  const button = h('button', { type: 'button', class: 'button' }, 'Refresh');
  button.addEventListener('click', async () => {
    button.disabled = true;
    await reload(true).catch(fail);
    button.disabled = false;
  });
  return button;
}

/** A horizontally scrolling box for a table, focusable so keyboard users can scroll it. */
export function scrollBox(labelledBy, ...content) {
  return h('div', { class: 'table-wrap', tabindex: 0, role: 'region', 'aria-labelledby': labelledBy }, ...content);
}

export function table(testid, caption, headings, rows, footer) {
  return h(
    'table',
    { class: 'table', 'data-testid': testid },
    caption,
    h('thead', {}, h('tr', {}, headings)),
    h('tbody', {}, rows),
    footer && h('tfoot', {}, footer),
  );
}
