// The account dashboard: sign in/up, email verification, API keys and usage. One HTML shell is
// served for every page path; this script picks the view from location.pathname and talks to the
// gateway's JSON API under /dashboard/api. No framework, no build step: the page's CSP allows only
// same-origin scripts and styles, so nothing here uses inline styles or injected HTML.
(function () {
  'use strict';

  const BASE = '/dashboard';
  const API = BASE + '/api';
  const APP_NAME = 'Credit dashboard';

  const state = {
    account: null, // { id, email, plan, is_verified } while signed in
    csrf: null, // the X-CSRF-Token value: from /csrf before sign-in, from the session after
    flash: null, // { text, kind } for the next render to show (set before a redirect)
    generation: 0, // bumped by every render: async work started by an older view is dropped
    renderedUrl: null, // path and query of the last render: a popstate to the same one (a #fragment) keeps the view
    redraw: null, // the current view's resize handler (the usage chart), if any
  };

  const els = {
    main: document.getElementById('main'),
    view: document.getElementById('view'),
    message: document.getElementById('message'),
    accountBar: document.getElementById('account-bar'),
  };

  const ROUTES = {
    [BASE]: { access: 'guest', view: signInView },
    [BASE + '/signin']: { access: 'guest', view: signInView },
    [BASE + '/signup']: { access: 'guest', view: signUpView },
    [BASE + '/verify']: { access: 'any', view: verifyView },
    [BASE + '/forgot']: { access: 'guest', view: forgotView },
    [BASE + '/reset']: { access: 'any', view: resetView },
    [BASE + '/keys']: { access: 'member', view: keysView },
    [BASE + '/usage']: { access: 'member', view: usageView },
  };

  const numberFormat = new Intl.NumberFormat();
  const compactFormat = new Intl.NumberFormat(undefined, { notation: 'compact' }); // chart ticks: 1.5K, 2M
  const dateTimeFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
  // Usage days are UTC calendar days: format them in UTC so they don't shift by the user's offset.
  const dayFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeZone: 'UTC' });
  const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });
  const monthFormat = new Intl.DateTimeFormat(undefined, { month: 'long', year: 'numeric', timeZone: 'UTC' });

  // ---- DOM helpers ------------------------------------------------------------------------------

  /** Builds an element: `props` are attributes or `on…` listeners; children are nodes, text or arrays of them. */
  function h(tag, props, ...children) {
    return build(document.createElement(tag), props, children);
  }

  function svg(tag, props, ...children) {
    return build(document.createElementNS('http://www.w3.org/2000/svg', tag), props, children);
  }

  function build(el, props, children) {
    for (const [name, value] of Object.entries(props || {})) {
      if (value === null || value === undefined || value === false) continue;
      if (name.startsWith('on')) el.addEventListener(name.slice(2), value);
      else el.setAttribute(name, value === true ? '' : String(value));
    }
    for (const child of children.flat(Infinity)) {
      if (child === null || child === undefined || child === false) continue;
      el.append(child instanceof Node ? child : String(child));
    }
    return el;
  }

  function setTitle(title) {
    document.title = `${title} — ${APP_NAME}`;
  }

  /** Puts text (or nodes) in the live region; kind is 'info', 'success' or 'error'. */
  function showMessage(content, kind) {
    els.message.className = `message message--${kind || 'info'}`;
    els.message.replaceChildren();
    if (content) els.message.append(h('p', {}, content));
  }

  function timeEl(iso, format) {
    if (!iso) return 'never';
    const date = new Date(iso);
    if (Number.isNaN(date.getTime())) return String(iso);
    return h('time', { datetime: iso, title: iso }, (format || dateTimeFormat).format(date));
  }

  function formatCu(value) {
    return numberFormat.format(value);
  }

  /** A usage day, "YYYY-MM-DD" (a UTC calendar day), in the user's locale. */
  function formatDay(day) {
    return dayFormat.format(new Date(day + 'T00:00:00Z'));
  }

  // ---- API --------------------------------------------------------------------------------------

  class ApiError extends Error {
    constructor(status, message) {
      super(message);
      this.status = status;
    }
  }

  /** Thrown after a 401 while signed in: the redirect to sign-in has already happened. */
  class SessionEnded extends Error {}

  async function api(method, path, body) {
    const headers = { accept: 'application/json' };
    if (method !== 'GET') headers['x-csrf-token'] = await csrfToken();
    const init = { method, headers, credentials: 'same-origin' };
    if (body !== undefined) {
      headers['content-type'] = 'application/json';
      init.body = JSON.stringify(body);
    }
    let response;
    try {
      response = await fetch(API + path, init);
    } catch {
      throw new ApiError(0, 'Could not reach the server. Check your connection and try again.');
    }
    const data = await response.json().catch(() => null);
    if (response.ok) return data;
    if (response.status === 401 && state.account) {
      endSession();
      throw new SessionEnded('session ended');
    }
    throw new ApiError(response.status, errorMessage(data, response));
  }

  async function csrfToken() {
    if (!state.csrf) state.csrf = (await api('GET', '/csrf')).csrf_token;
    return state.csrf;
  }

  /** A readable message from any of the error bodies: {detail: "…"}, {error: "…"}, {detail: {error, message}}. */
  function errorMessage(body, response) {
    const detail = body && body.detail;
    let text = textOf(detail) || textOf(body);
    if (!text && Array.isArray(detail)) text = detail.map(textOf).filter(Boolean).join('; ');
    if (!text) text = `Something went wrong (HTTP ${response.status}). Please try again.`;
    const retryAfter = Number((detail && detail.retry_after) || (body && body.retry_after) || response.headers.get('retry-after'));
    if (response.status === 429 && retryAfter > 0) text += ` ${retryHint(retryAfter)}`;
    return text;
  }

  /** A string as is, or an object's message (preferred over a machine-readable `error` code). */
  function textOf(value) {
    if (typeof value === 'string') return value.trim();
    if (!value || typeof value !== 'object' || Array.isArray(value)) return '';
    for (const key of ['message', 'msg', 'detail', 'error']) {
      if (typeof value[key] === 'string' && value[key].trim()) return value[key].trim();
    }
    return '';
  }

  function retryHint(seconds) {
    if (seconds < 60) return `Try again in ${Math.ceil(seconds)} seconds.`;
    const at = new Intl.DateTimeFormat(undefined, { timeStyle: 'short' }).format(new Date(Date.now() + seconds * 1000));
    return `Try again in about ${Math.ceil(seconds / 60)} minutes (at ${at}).`;
  }

  function reportError(error) {
    if (error instanceof SessionEnded) return;
    if (!(error instanceof ApiError)) console.error(error);
    showMessage(error instanceof ApiError ? error.message : 'Something went wrong. Please try again.', 'error');
  }

  // ---- Session and routing ----------------------------------------------------------------------

  /** Takes a session reply; `{account: null}` (a signed-out session answered 200) is accepted too. */
  function signedIn(result) {
    state.account = result.account || null;
    state.csrf = result.csrf_token || state.csrf;
  }

  function endSession() {
    state.account = null;
    state.csrf = null;
    navigate(BASE + '/signin', { replace: true, message: { text: 'Your session has ended. Please sign in again.', kind: 'error' } });
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

  function normalizePath(pathname) {
    return pathname.replace(/\/+$/, '') || '/';
  }

  function navigate(url, options) {
    const { replace = false, message = null } = options || {};
    if (message) state.flash = message;
    history[replace ? 'replaceState' : 'pushState'](null, '', url);
    render();
  }

  function render() {
    const path = normalizePath(location.pathname);
    const route = ROUTES[path] || { access: 'any', view: notFoundView };
    if (route.access === 'member' && !state.account) return navigate(BASE + '/signin', { replace: true });
    if (route.access === 'guest' && state.account) return navigate(BASE + '/keys', { replace: true });

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

  function isCurrent(generation) {
    return generation === state.generation;
  }

  function renderAccountBar(path) {
    if (!state.account) return els.accountBar.replaceChildren();
    const link = (href, label) => h('a', { href, 'aria-current': path === href ? 'page' : null }, label);
    const signOutButton = h('button', { type: 'button', class: 'button button--quiet', onclick: () => signOut(signOutButton) }, 'Sign out');
    els.accountBar.replaceChildren(
      h('nav', { 'aria-label': 'Dashboard', class: 'nav' }, link(BASE + '/keys', 'Keys'), link(BASE + '/usage', 'Usage')),
      h(
        'div',
        { class: 'account' },
        h('span', { class: 'account__email', title: state.account.email }, state.account.email),
        signOutButton,
      ),
    );
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

  // ---- Forms ------------------------------------------------------------------------------------

  function field(name, label, props, hint) {
    const id = `field-${name}`;
    const hintId = hint ? `${id}-hint` : null;
    return h(
      'div',
      { class: 'field' },
      h('label', { for: id }, label),
      hint && h('p', { id: hintId, class: 'hint' }, hint),
      h('input', { id, name, 'aria-describedby': hintId, ...props }),
    );
  }

  /**
   * Validates with the browser's constraints but reports in our message region (not the native
   * bubble), marks the bad field aria-invalid and focuses it.
   */
  function validateForm(form) {
    let firstBad = null;
    for (const input of form.querySelectorAll('input')) {
      if (!input.willValidate) continue;
      const problem = input.required && !input.value.trim() ? 'Please fill in this field.' : input.validationMessage;
      input.toggleAttribute('aria-invalid', Boolean(problem));
      if (problem && !firstBad) firstBad = { input, problem };
    }
    if (!firstBad) return true;
    const label = form.querySelector(`label[for="${firstBad.input.id}"]`);
    showMessage(`${label ? label.textContent : 'Field'}: ${firstBad.problem}`, 'error');
    firstBad.input.focus();
    return false;
  }

  /** Runs `action(formData)` on submit with the button disabled meanwhile; errors go to the message region. */
  function onSubmit(form, action) {
    form.noValidate = true;
    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      if (form.getAttribute('aria-busy') === 'true' || !validateForm(form)) return;
      const buttons = form.querySelectorAll('button');
      form.setAttribute('aria-busy', 'true');
      buttons.forEach((button) => (button.disabled = true));
      try {
        await action(new FormData(form));
      } catch (error) {
        reportError(error);
      } finally {
        form.removeAttribute('aria-busy');
        buttons.forEach((button) => (button.disabled = false));
      }
    });
    return form;
  }

  function authPage(title, ...content) {
    return h('div', { class: 'narrow' }, h('h1', {}, title), ...content);
  }

  // ---- Views: signed out ------------------------------------------------------------------------

  function signInView(view) {
    setTitle('Sign in');
    const form = h(
      'form',
      { class: 'card stack' },
      field('email', 'Email', { type: 'email', autocomplete: 'email', required: true }),
      field('password', 'Password', { type: 'password', autocomplete: 'current-password', required: true }),
      h('button', { type: 'submit', class: 'button button--primary' }, 'Sign in'),
    );
    onSubmit(form, async (data) => {
      signedIn(await api('POST', '/signin', { email: data.get('email'), password: data.get('password') }));
      navigate(BASE + '/keys');
    });
    view.append(
      authPage(
        'Sign in',
        form,
        h('p', {}, h('a', { href: BASE + '/forgot' }, 'Forgot your password?')),
        h('p', {}, 'No account yet? ', h('a', { href: BASE + '/signup' }, 'Sign up')),
      ),
    );
  }

  function signUpView(view) {
    setTitle('Sign up');
    const form = h(
      'form',
      { class: 'card stack' },
      field(
        'email',
        'Email',
        { type: 'email', autocomplete: 'email', required: true },
        'We email you a link: you choose your password on the page it opens.',
      ),
      h('button', { type: 'submit', class: 'button button--primary' }, 'Create account'),
    );
    onSubmit(form, async (data) => {
      const result = await api('POST', '/signup', { email: data.get('email') });
      showMessage((result && result.message) || 'Check your email for a link to choose your password.', 'success');
    });
    view.append(
      authPage('Create an account', form, h('p', {}, 'Already have an account? ', h('a', { href: BASE + '/signin' }, 'Sign in'))),
    );
  }

  /**
   * The sign-up link's page: its owner chooses the password here. Opening it sends nothing (mail
   * scanners open links too); only the form below uses the link up, creating the account or
   * claiming the one the operator made.
   */
  function verifyView(view, generation) {
    linkPasswordView(view, generation, {
      title: 'Choose your password',
      path: '/verify',
      hint: 'At least 12 characters. You sign in with it and your email.',
      submit: 'Set password',
      missing: h('p', {}, h('a', { href: BASE + '/signup' }, 'Sign up again'), ' to get a new link.'),
      done: 'Your account is ready — sign in with your new password.',
    });
  }

  function forgotView(view) {
    setTitle('Forgot password');
    const form = h(
      'form',
      { class: 'card stack' },
      field('email', 'Email', { type: 'email', autocomplete: 'email', required: true }),
      h('button', { type: 'submit', class: 'button button--primary' }, 'Send reset link'),
    );
    onSubmit(form, async (data) => {
      const result = await api('POST', '/password/forgot', { email: data.get('email') });
      showMessage((result && result.message) || 'Check your email for a link to choose a new password.', 'success');
    });
    view.append(authPage('Forgot your password?', form, h('p', {}, h('a', { href: BASE + '/signin' }, 'Back to sign in'))));
  }

  /** The reset link's page: a new password for the token in the URL. */
  function resetView(view, generation) {
    linkPasswordView(view, generation, {
      title: 'Choose a new password',
      path: '/reset',
      hint: 'At least 12 characters. Every signed-in session ends.',
      submit: 'Set password',
      missing: h('p', {}, h('a', { href: BASE + '/forgot' }, 'Ask for a new link')),
      done: 'Password changed — sign in with the new one.',
    });
  }

  /**
   * A page an emailed link opens (sign-up or reset): a form for the password, sent with the link's
   * token (kept out of the history once used). The answer's keys_before names the keys the account
   * already held: its owner is asked to review them.
   */
  function linkPasswordView(view, generation, page) {
    setTitle(page.title);
    const token = new URLSearchParams(location.search).get('token');
    if (!token) {
      showMessage('This link is incomplete. Open the link from your email again.', 'error');
      return view.append(authPage(page.title, page.missing));
    }
    const form = h(
      'form',
      { class: 'card stack' },
      field('password', 'New password', { type: 'password', autocomplete: 'new-password', required: true, minlength: 12 }, page.hint),
      h('button', { type: 'submit', class: 'button button--primary' }, page.submit),
    );
    onSubmit(form, async (data) => {
      const result = await api('POST', page.path === '/verify' ? '/verify' : '/password/reset', { token, password: data.get('password') });
      if (!isCurrent(generation)) return;
      history.replaceState(null, '', BASE + page.path);
      state.renderedUrl = BASE + page.path;
      state.account = null;
      renderAccountBar(BASE + page.path);
      const count = (result && result.keys_before) || 0;
      const review =
        count > 0 &&
        h(
          'p',
          { class: 'warning', 'data-testid': 'keys-before' },
          `This account has ${count} API key${count === 1 ? '' : 's'} made before you set this password: review them on the Keys page after signing in, and revoke any you do not recognise.`,
        );
      form.replaceWith(
        h(
          'div',
          { class: 'stack' },
          review,
          h('p', {}, h('a', { href: BASE + '/signin', class: 'button button--primary' }, 'Continue to sign in')),
        ),
      );
      showMessage(page.done, 'success');
    });
    view.append(authPage(page.title, form));
  }

  function notFoundView(view) {
    setTitle('Page not found');
    view.append(
      authPage('Page not found', h('p', {}, 'There is no such page. ', h('a', { href: BASE + '/' }, 'Go to the dashboard'), '.')),
    );
  }

  // ---- Views: keys ------------------------------------------------------------------------------

  function keysView(view, generation) {
    setTitle('Keys');
    const newKeySlot = h('div');
    const tableBox = scrollBox('keys-title', h('p', { class: 'muted' }, 'Loading keys…'));
    const listHeading = h('h2', { id: 'keys-title', tabindex: -1 }, 'Your keys');
    const confirmRevoke = revokeDialog(view, afterRevoke);
    const fail = (error) => isCurrent(generation) && reportError(error);

    async function loadKeys(announce) {
      if (!isCurrent(generation)) return;
      const { keys } = await api('GET', '/keys');
      if (!isCurrent(generation)) return;
      tableBox.replaceChildren(keysTable(keys, confirmRevoke));
      if (announce) showMessage('Key list refreshed.', 'info');
    }

    // Refresh even after a failed revoke (a 404 means the list was stale), then put focus on the list.
    async function afterRevoke() {
      await loadKeys().catch(fail);
      if (isCurrent(generation)) listHeading.focus();
    }

    const nameHint = 'Something to tell keys apart, e.g. “production server”.';
    const form = h(
      'form',
      { class: 'inline-form', 'aria-labelledby': 'create-title' },
      field('name', 'Name', { type: 'text', required: true, maxlength: 100, autocomplete: 'off' }, nameHint),
      h('button', { type: 'submit', class: 'button button--primary' }, 'Create key'),
    );
    onSubmit(form, async (data) => {
      const created = await api('POST', '/keys', { name: String(data.get('name')).trim() });
      if (!isCurrent(generation)) return;
      form.reset();
      showMessage(`Key “${created.name}” created. Copy it now: it will not be shown again.`, 'success');
      showNewKey(newKeySlot, created.name, created.key, () => form.elements.name.focus());
      await loadKeys();
    });

    view.append(
      h('h1', {}, 'API keys'),
      h('section', { class: 'card' }, h('h2', { id: 'create-title' }, 'Create a key'), form),
      newKeySlot,
      h('section', { class: 'card' }, h('div', { class: 'section-head' }, listHeading, refreshButton(loadKeys, fail)), tableBox),
    );
    loadKeys().catch(fail);
  }

  /** A "Refresh" button calling reload(true), disabled while it runs. */
  function refreshButton(reload, fail) {
    const button = h('button', { type: 'button', class: 'button' }, 'Refresh');
    button.addEventListener('click', async () => {
      button.disabled = true;
      await reload(true).catch(fail);
      button.disabled = false;
    });
    return button;
  }

  /** A horizontally scrolling box for a table, focusable so keyboard users can scroll it. */
  function scrollBox(labelledBy, ...content) {
    return h('div', { class: 'table-wrap', tabindex: 0, role: 'region', 'aria-labelledby': labelledBy }, ...content);
  }

  function table(testid, caption, headings, rows, footer) {
    return h(
      'table',
      { class: 'table', 'data-testid': testid },
      caption,
      h('thead', {}, h('tr', {}, headings)),
      h('tbody', {}, rows),
      footer && h('tfoot', {}, footer),
    );
  }

  /**
   * The shown-once key. Its only copy lives in this panel's input: "Done", a re-render (navigation)
   * or leaving the page (pagehide) clears the value and removes the panel.
   */
  function showNewKey(slot, name, key, afterDismiss) {
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

  function dropNewKeys() {
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

  function keysTable(keys, confirmRevoke) {
    const row = (key) => {
      const cell = (col, content) => h('td', { 'data-col': col, id: col === 'name' ? `name-${key.key_id}` : null }, content);
      const revoke = h(
        'button',
        {
          type: 'button',
          class: 'button button--danger-quiet',
          'aria-describedby': `name-${key.key_id}`,
          onclick: () => confirmRevoke(key),
        },
        'Revoke',
      );
      return h(
        'tr',
        { 'data-key-id': key.key_id },
        cell('name', key.name),
        cell('start', h('code', {}, `${key.start}…`)),
        cell('created', timeEl(key.created_at)),
        cell('last-used', timeEl(key.last_used_at)),
        cell('status', h('span', { class: `badge badge--${key.status}` }, key.status)),
        h('td', { class: 'actions' }, key.status === 'active' && revoke),
      );
    };
    const headings = ['Name', 'Key', 'Created', 'Last used', 'Status'].map((label) => h('th', { scope: 'col' }, label));
    headings.push(h('th', { scope: 'col' }, h('span', { class: 'visually-hidden' }, 'Actions')));
    const rows = keys.slice().reverse().map(row); // the API lists oldest first; show the newest first
    const empty = h('tr', {}, h('td', { colspan: 6, class: 'muted' }, 'No keys yet. Create one above to start calling the API.'));
    return table('keys-table', h('caption', { class: 'visually-hidden' }, 'API keys, newest first'), headings, rows.length ? rows : empty);
  }

  /**
   * A modal <dialog> confirming a revocation; returns open(key). Escape or Cancel closes it
   * unchanged; "Revoke key" posts, closes, reports, then calls afterRevoke().
   */
  function revokeDialog(view, afterRevoke) {
    let current = null;
    let busy = false;
    const description = h('p', { id: 'revoke-description' });
    const cancel = h('button', { type: 'button', class: 'button', onclick: () => dialog.close() }, 'Cancel');
    const confirm = h('button', { type: 'button', class: 'button button--danger' }, 'Revoke key');
    const dialog = h(
      'dialog',
      { class: 'dialog', 'aria-labelledby': 'revoke-title', 'aria-describedby': 'revoke-description' },
      h('h2', { id: 'revoke-title' }, 'Revoke this key?'),
      description,
      h('div', { class: 'dialog__actions' }, cancel, confirm),
    );
    dialog.addEventListener('cancel', (event) => busy && event.preventDefault());
    confirm.addEventListener('click', async () => {
      const key = current;
      let failure = null;
      busy = confirm.disabled = cancel.disabled = true;
      try {
        await api('POST', `/keys/${encodeURIComponent(key.key_id)}/revoke`);
      } catch (error) {
        failure = error;
      }
      busy = confirm.disabled = cancel.disabled = false;
      if (failure instanceof SessionEnded) return; // the view is gone already
      dialog.close();
      if (failure) reportError(failure);
      else showMessage(`Key “${key.name}” revoked.`, 'success');
      await afterRevoke();
    });
    view.append(dialog);
    return (key) => {
      current = key;
      description.textContent = `Revoking “${key.name}” (${key.start}…) is immediate and permanent: requests using it are refused from now on, and it cannot be undone.`;
      dialog.showModal();
      cancel.focus();
    };
  }

  // ---- Views: usage -----------------------------------------------------------------------------

  function usageView(view, generation) {
    setTitle('Usage');
    const content = h('div', {}, h('p', { class: 'muted' }, 'Loading usage…'));
    const fail = (error) => isCurrent(generation) && reportError(error);

    async function load(announce) {
      const usage = await api('GET', '/usage');
      if (!isCurrent(generation)) return;
      renderUsage(content, usage);
      if (announce) showMessage('Usage refreshed.', 'info');
    }

    view.append(h('div', { class: 'section-head' }, h('h1', {}, 'Usage'), refreshButton(load, fail)), content);
    load().catch(fail);
  }

  function renderUsage(container, usage) {
    const stat = (label, value, unit) => h('div', { class: 'stat' }, h('dt', {}, label), h('dd', {}, value, unit));
    const figure = (testid, value) => h('span', { 'data-testid': testid }, value);
    const upTo = (testid, value) =>
      value === null || value === undefined ? figure(testid, 'unlimited') : [figure(testid, formatCu(value)), ' CU'];
    const periodEnd = timeEl(usage.period_end, dateFormat);
    if (periodEnd instanceof Node) periodEnd.setAttribute('data-testid', 'usage-period-end');
    const summary = h(
      'dl',
      { class: 'stats' },
      stat('Plan', figure('usage-plan', usage.plan)),
      stat('Used this month', figure('usage-used', formatCu(usage.used)), ' CU'),
      stat('Remaining', upTo('usage-remaining', usage.remaining)),
      stat('Monthly limit', upTo('usage-limit', usage.monthly_limit)),
      stat('Resets on', periodEnd),
    );

    state.redraw = null;
    const daily = (usage.daily || []).filter((day) => day.cu > 0);
    if (!daily.length && !usage.used) {
      return container.replaceChildren(summary, h('section', { class: 'card' }, h('p', { class: 'empty' }, 'No CU used yet this month.')));
    }

    // Operations ordered by their total, biggest first: the same order in the stack, legend and table.
    const totals = usage.by_operation || {};
    const operations = Object.keys(totals).sort((a, b) => totals[b] - totals[a] || a.localeCompare(b));
    for (const day of daily) for (const op of Object.keys(day.by_operation || {})) if (!operations.includes(op)) operations.push(op);
    const days = periodDays(usage, daily);

    const chartBox = h('div', { class: 'chart-box' });
    const legendItem = (op, i) =>
      h(
        'li',
        {},
        h('span', { class: `swatch op-${i % 12}`, 'aria-hidden': 'true' }),
        `${op} `,
        h('span', { class: 'muted' }, `${formatCu(totals[op] || 0)} CU`),
      );
    const month = monthFormat.format(new Date(days[0] + 'T00:00:00Z')); // the period's month, not today's
    container.replaceChildren(
      summary,
      h(
        'section',
        { class: 'card' },
        h('h2', {}, `CU per day, ${month}`),
        chartBox,
        h('ul', { class: 'legend', 'aria-label': 'Operations' }, operations.map(legendItem)),
      ),
      h(
        'section',
        { class: 'card' },
        h('h2', { id: 'usage-table-title' }, 'Breakdown'),
        h('p', { class: 'hint' }, 'Days with no usage are left out.'),
        scrollBox('usage-table-title', usageTable(usage, daily, operations)),
      ),
    );

    // The chart is drawn at the box's real pixel width (so its text stays legible on a phone) and
    // redrawn when that width changes.
    let drawnWidth = 0;
    state.redraw = () => {
      const width = Math.max(260, Math.floor(chartBox.clientWidth));
      if (width === drawnWidth) return;
      drawnWidth = width;
      chartBox.replaceChildren(usageChart(width, days, daily, operations, usage.used));
    };
    state.redraw();
  }

  /** The period's UTC days, "YYYY-MM-DD", from period_start up to today (or the period's last day). */
  function periodDays(usage, daily) {
    const dayOf = (value) => (/^\d{4}-\d{2}-\d{2}$/.test(value) ? value : new Date(value).toISOString().slice(0, 10));
    const first = dayOf(usage.period_start);
    const lastOfPeriod = new Date(Date.parse(usage.period_end) - 1).toISOString().slice(0, 10);
    const today = new Date().toISOString().slice(0, 10);
    let last = today < lastOfPeriod ? today : lastOfPeriod;
    for (const day of daily) if (day.date > last) last = day.date; // never cut off a day that has CU
    const days = [];
    for (let t = Date.parse(first + 'T00:00:00Z'); days.length < 400; t += 86400000) {
      const day = new Date(t).toISOString().slice(0, 10);
      if (day > last) break;
      days.push(day);
    }
    return days.length ? days : [first];
  }

  /** A stacked bar chart, one bar per day, drawn as SVG with presentation attributes (CSP-safe). */
  function usageChart(width, days, daily, operations, used) {
    const height = 240;
    const pad = { top: 20, right: 8, bottom: 36, left: 48 };
    const plotW = width - pad.left - pad.right;
    const plotH = height - pad.top - pad.bottom;
    const byDate = new Map(daily.map((day) => [day.date, day]));
    const peak = daily.reduce((best, day) => (day.cu > best.cu ? day : best), daily[0] || { cu: 0, date: days[0] });
    const step = niceStep(Math.max(peak.cu, 1) / 4);
    const top = step * 4;
    const yOf = (cu) => pad.top + plotH - (cu / top) * plotH;
    const slot = plotW / days.length;
    const barW = Math.max(2, Math.min(28, slot * 0.7));
    const labelEvery = Math.ceil(days.length / Math.max(1, Math.floor(plotW / 26)));

    const label =
      `Bar chart of CU per day from ${formatDay(days[0])} to ${formatDay(days[days.length - 1])}: ` +
      `${formatCu(used)} CU in total, most on ${formatDay(peak.date)} with ${formatCu(peak.cu)} CU.`;
    const chart = svg('svg', { class: 'chart', width, height, role: 'img', 'aria-label': label, 'data-testid': 'usage-chart' });

    for (let i = 0; i <= 4; i += 1) {
      const y = yOf(step * i);
      chart.append(
        svg('line', { class: i ? 'grid' : 'axis', x1: pad.left, x2: width - pad.right, y1: y, y2: y }),
        svg('text', { class: 'tick', x: pad.left - 6, y: y + 4, 'text-anchor': 'end' }, compactFormat.format(step * i)),
      );
    }
    chart.append(svg('text', { class: 'axis-title', x: pad.left - 6, y: 10, 'text-anchor': 'end' }, 'CU'));

    days.forEach((date, i) => {
      const x = pad.left + i * slot + (slot - barW) / 2;
      const day = byDate.get(date);
      let base = 0;
      operations.forEach((op, opIndex) => {
        const cu = (day && day.by_operation && day.by_operation[op]) || 0;
        if (!cu) return;
        const y = yOf(base + cu);
        const segment = svg('rect', { class: `seg op-${opIndex % 12}`, x, y, width: barW, height: Math.max(1, yOf(base) - y) });
        segment.append(svg('title', {}, `${date} · ${op}: ${formatCu(cu)} CU`));
        chart.append(segment);
        base += cu;
      });
      const dayOfMonth = String(Number(date.slice(8)));
      const tick = { class: 'tick', x: x + barW / 2, y: height - pad.bottom + 15, 'text-anchor': 'middle' };
      if (i % labelEvery === 0) chart.append(svg('text', tick, dayOfMonth));
    });
    chart.append(svg('text', { class: 'axis-title', x: width - pad.right, y: height - 2, 'text-anchor': 'end' }, 'Day of month (UTC)'));
    return chart;
  }

  /** 1, 2 or 5 times a power of ten, at least `raw` and at least 1 (CU are whole numbers). */
  function niceStep(raw) {
    const power = 10 ** Math.floor(Math.log10(Math.max(raw, 1)));
    for (const factor of [1, 2, 5, 10]) if (factor * power >= raw) return factor * power;
    return 10 * power;
  }

  /** The chart's data as a table: a row per day with CU, a column per operation, totals last. */
  function usageTable(usage, daily, operations) {
    const num = (value) => h('td', { class: 'num' }, value ? formatCu(value) : '–');
    const row = (heading, byOperation, total) =>
      h(
        'tr',
        {},
        h('th', { scope: 'row' }, heading),
        operations.map((op) => num((byOperation || {})[op])),
        h('td', { class: 'num total' }, formatCu(total)),
      );
    const headings = [
      h('th', { scope: 'col' }, 'Day'),
      operations.map((op) => h('th', { scope: 'col', class: 'num' }, op)),
      h('th', { scope: 'col', class: 'num' }, 'Total'),
    ];
    return table(
      'usage-table',
      h('caption', { class: 'visually-hidden' }, 'CU by day and operation'),
      headings,
      daily.map((day) => row(timeEl(day.date, dayFormat), day.by_operation, day.cu)),
      row('Total', usage.by_operation, usage.used),
    );
  }

  // ---- Start ------------------------------------------------------------------------------------

  async function start() {
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
})();
