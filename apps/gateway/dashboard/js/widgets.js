// Pieces the signed-in pages (keys, usage) share: a Refresh button and tables.
import { ApiError, SessionEnded } from './api.js';
import { h } from './dom.js';

/** What a load shows meanwhile. */
export function loading(what) {
  return h('p', { class: 'muted', role: 'status' }, `Loading ${what}…`);
}

/**
 * A load's error state in place of its content (announced): what failed and a Retry button;
 * `retry()` starts the load again. An ended session has left the page already: nothing.
 */
export function showLoadFailure(box, what, error, retry) {
  if (error instanceof SessionEnded) return;
  if (!(error instanceof ApiError)) console.error(error);
  const why = error instanceof ApiError ? error.message : 'Something went wrong.';
  const button = h('button', { type: 'button', class: 'button', onclick: retry }, 'Retry');
  box.replaceChildren(
    h('div', { class: 'state-panel', role: 'alert', 'data-testid': 'load-error' }, h('p', {}, `Could not load ${what}. ${why}`), button),
  );
}

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
