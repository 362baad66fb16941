// Moving between views without a page load. main.js owns the route table (it imports every view)
// and hands its render function over at boot, so the views can navigate without importing main.js.
import { BASE, state } from './state.js';

let renderPage = null;
let memberPaths = new Set();

/** `members`: the paths that need a session (a deep link to one is kept through sign-in). */
export function useRenderer(render, members) {
  renderPage = render;
  memberPaths = new Set(members);
}

export function normalizePath(pathname) {
  return pathname.replace(/\/+$/, '') || '/';
}

export function navigate(url, options) {
  const { replace = false, message = null } = options || {};
  if (message) state.flash = message;
  history[replace ? 'replaceState' : 'pushState'](null, '', url);
  renderPage();
}

/** The sign-in page's URL that comes back to `path` (a members' page) once signed in. */
export function signInReturningTo(path) {
  return memberPaths.has(path) && path !== BASE + '/keys' ? `${BASE}/signin?next=${encodeURIComponent(path)}` : BASE + '/signin';
}

/** Where sign-in goes: the `next` page it was sent from when that is one of ours (never another site), else Keys. */
export function afterSignIn() {
  const next = new URLSearchParams(location.search).get('next');
  return next && memberPaths.has(next) ? next : BASE + '/keys';
}

/** A 401 while signed in: back to sign-in, saying why. */
export function endSession() {
  state.account = null;
  state.csrf = null;
  const back = signInReturningTo(normalizePath(location.pathname));
  navigate(back, { replace: true, message: { text: 'Your session has ended. Please sign in again.', kind: 'error' } });
}
