// The account dashboard: sign in/up, the emailed links' password pages, API keys, usage and webhooks. One
// HTML shell is served for every page path; this module picks the view from location.pathname
// and the views talk to the gateway's JSON API under /dashboard/api (api.js). Plain ES modules
// from the same origin, no framework, no build step: the page's CSP allows only same-origin
// scripts and styles, so nothing here uses inline styles or injected HTML.
import { ApiError, api } from './api.js';
import { renderAccountBar } from './account-bar.js';
import { els, showMessage } from './dom.js';
import { afterSignIn, navigate, normalizePath, signInReturningTo, useRenderer } from './navigation.js';
import { BASE, signedIn, state } from './state.js';
import { forgotView } from './views/forgot.js';
import { keysView } from './views/keys.js';
import { dropNewKeys } from './views/new-key.js';
import { notFoundView } from './views/not-found.js';
import { resetView, verifyView } from './views/password-link.js';
import { signInView } from './views/sign-in.js';
import { signUpView } from './views/sign-up.js';
import { usageView } from './views/usage.js';
import { webhooksView } from './views/webhooks.js';

const ROUTES = {
  [BASE]: { access: 'guest', view: signInView },
  [BASE + '/signin']: { access: 'guest', view: signInView },
  [BASE + '/signup']: { access: 'guest', view: signUpView },
  [BASE + '/verify']: { access: 'any', view: verifyView },
  [BASE + '/forgot']: { access: 'guest', view: forgotView },
  [BASE + '/reset']: { access: 'any', view: resetView },
  [BASE + '/keys']: { access: 'member', view: keysView },
  [BASE + '/usage']: { access: 'member', view: usageView },
  [BASE + '/webhooks']: { access: 'member', view: webhooksView },
};

function render() {
  const path = normalizePath(location.pathname);
  const route = ROUTES[path] || { access: 'any', view: notFoundView };
  if (route.access === 'member' && !state.account) return navigate(signInReturningTo(path), { replace: true });
  if (route.access === 'guest' && state.account) return navigate(afterSignIn(), { replace: true });

  const firstRender = state.renderedUrl === null;
  state.generation += 1;
  state.renderedUrl = location.pathname + location.search;
  state.redraw = null;
  dropNewKeys();
  els.view.replaceChildren();
  showMessage(state.flash && state.flash.text, state.flash && state.flash.kind);
  state.flash = null;
  renderAccountBar(path);
  els.main.setAttribute('data-layout', route.access === 'member' ? 'wide' : 'narrow');
  route.view(els.view, state.generation);

  // After an in-app navigation, move focus to the new heading so screen readers announce it.
  const heading = els.view.querySelector('h1');
  if (!firstRender && heading) {
    heading.setAttribute('tabindex', '-1');
    heading.focus();
  }
}

function onPopState() {
  if (location.pathname + location.search !== state.renderedUrl) render();
}

/** In-app links change the view without a page load; anything else is left to the browser. */
function onLinkClick(event) {
  const link = event.target.closest && event.target.closest('a[href]');
  if (!link || event.defaultPrevented || event.button !== 0) return;
  if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey || link.target || link.hasAttribute('download')) return;
  const url = new URL(link.href, location.href);
  if (url.origin !== location.origin || url.hash || !ROUTES[normalizePath(url.pathname)]) return;
  event.preventDefault();
  navigate(url.pathname + url.search);
}

async function start() {
  useRenderer(
    render,
    Object.keys(ROUTES).filter((path) => ROUTES[path].access === 'member'),
  );
  document.addEventListener('click', onLinkClick);
  window.addEventListener('popstate', onPopState);
  window.addEventListener('pagehide', dropNewKeys); // never leave the shown-once key in a cached page
  let resizeTimer = null;
  window.addEventListener('resize', () => {
    clearTimeout(resizeTimer);
    resizeTimer = setTimeout(() => state.redraw && state.redraw(), 150);
  });
  try {
    signedIn(await api('GET', '/session'));
  } catch (error) {
    if (!(error instanceof ApiError && error.status === 401)) {
      state.flash = { text: `Could not check your session: ${error.message}`, kind: 'error' };
    }
  }
  render();
}

start();
