// Moving between views without a page load. main.js owns the route table (it imports every view)
// and hands its render function over at boot, so the views can navigate without importing main.js.
import { BASE, state } from './state.js';

let renderPage = null;

export function useRenderer(render) {
  renderPage = render;
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

/** A 401 while signed in: back to sign-in, saying why. */
export function endSession() {
  state.account = null;
  state.csrf = null;
  navigate(BASE + '/signin', { replace: true, message: { text: 'Your session has ended. Please sign in again.', kind: 'error' } });
}
