// The header's account bar while signed in: the Keys, Usage and Webhooks links, the email, Sign out.
import { api, SessionEnded } from './api.js';
import { els, h } from './dom.js';
import { navigate } from './navigation.js';
import { BASE, state } from './state.js';

export function renderAccountBar(path) {
  if (!state.account) return els.accountBar.replaceChildren();
  const link = (href, label) => h('a', { href, 'aria-current': path === href ? 'page' : null }, label);
  const signOutButton = h('button', { type: 'button', class: 'button button--quiet', onclick: () => signOut(signOutButton) }, 'Sign out');
  els.accountBar.replaceChildren(
    h(
      'nav',
      { 'aria-label': 'Dashboard', class: 'nav' },
      link(BASE + '/keys', 'Keys'),
      link(BASE + '/usage', 'Usage'),
      link(BASE + '/webhooks', 'Webhooks'),
    ),
    h('div', { class: 'account' }, h('span', { class: 'account__email', title: state.account.email }, state.account.email), signOutButton),
  );
}

async function signOut(button) {
  button.disabled = true;
  try {
    await api('POST', '/signout');
  } catch (error) {
    if (!(error instanceof SessionEnded)) console.warn('sign-out failed', error);
  }
  state.account = null;
  state.csrf = null;
  navigate(BASE + '/signin', { message: { text: 'You have signed out.', kind: 'info' } });
}
