// A path the route table does not know.
import { h, setTitle } from '../dom.js';
import { authPage } from '../forms.js';
import { BASE } from '../state.js';

export function notFoundView(view) {
  setTitle('Page not found');
  view.append(authPage('Page not found', h('p', {}, 'There is no such page. ', h('a', { href: BASE + '/' }, 'Go to the dashboard'), '.')));
}
