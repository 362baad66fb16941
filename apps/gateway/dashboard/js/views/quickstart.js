// The new key's quickstart: a first call with the key filled in, as curl and as Node (fetch).
import { h } from '../dom.js';

/** An address to score in the examples (any address or ENS name works). */
const EXAMPLE_ADDRESS = '0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045';

/** The snippets, ready to paste: this origin's API, the key in the Authorization header. */
function quickstartSnippets(key, origin) {
  const url = `${origin}/api/v2/score/address/${EXAMPLE_ADDRESS}`;
  return {
    curl: `curl -i ${url} \\\n  -H "Authorization: Bearer ${key}"`,
    node: [
      `const response = await fetch('${url}', {`,
      `  headers: { Authorization: 'Bearer ${key}' },`,
      '});',
      "console.log(response.status, response.headers.get('x-cu-cost'), await response.json());",
    ].join('\n'),
  };
}

/**
 * The quickstart section of the new-key panel. The snippets hold the key, so they live in the
 * panel only and go with it (new-key.js drops the panel on Done, navigation and pagehide).
 */
export function quickstart(key, copy) {
  const snippets = quickstartSnippets(key, location.origin);
  const block = (id, title, hint, text) => {
    const code = h('pre', { class: 'snippet', id: `snippet-${id}`, tabindex: 0, 'data-testid': `snippet-${id}` }, h('code', {}, text));
    const status = h('p', { class: 'copy-status', 'aria-live': 'polite' });
    return h(
      'div',
      { class: 'snippet-block' },
      h('div', { class: 'snippet-head' }, h('h4', { id: `snippet-${id}-title` }, title), h('span', { class: 'muted' }, hint)),
      code,
      h(
        'button',
        { type: 'button', class: 'button', 'aria-describedby': `snippet-${id}-title`, onclick: () => copy(text, code, status) },
        `Copy ${title}`,
      ),
      status,
    );
  };
  return h(
    'section',
    { class: 'quickstart', 'aria-labelledby': 'quickstart-title', 'data-testid': 'quickstart' },
    h('h3', { id: 'quickstart-title' }, 'Make your first call'),
    h('p', {}, 'Score an address with this key. Each call costs CU: its price and your month’s use are on the Usage page.'),
    block('curl', 'curl', 'a shell', snippets.curl),
    block('node', 'Node', 'Node 18 or later, as an ES module', snippets.node),
    h(
      'p',
      {},
      'Every operation, its parameters and its answers: ',
      h('a', { href: '/docs', 'data-testid': 'docs-link' }, 'the API reference'),
      '.',
    ),
  );
}
