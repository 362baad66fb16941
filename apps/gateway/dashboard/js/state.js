// What every module of the dashboard shares: its base path and the page's state.

export const BASE = '/dashboard';

export const state = {
  account: null, // { id, email, plan, is_verified } while signed in
  csrf: null, // the X-CSRF-Token value: from /csrf before sign-in, from the session after
  flash: null, // { text, kind } for the next render to show (set before a redirect)
  generation: 0, // bumped by every render: async work started by an older view is dropped
  renderedUrl: null, // path and query of the last render: a popstate to the same one (a #fragment) keeps the view
  redraw: null, // the current view's resize handler (the usage chart), if any
};

/** Whether the view that started some async work (its `generation`) is still the one shown. */
export function isCurrent(generation) {
  return generation === state.generation;
}

/** Takes a session reply; `{account: null}` (a signed-out session answered 200) is accepted too. */
export function signedIn(result) {
  state.account = result.account || null;
  state.csrf = result.csrf_token || state.csrf;
}
