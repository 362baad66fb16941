// The pages an emailed link opens: the sign-up link's (verify: choose your password, creating or
// claiming the account) and the reset link's (choose a new password).
import { renderAccountBar } from '../account-bar.js';
import { ApiError, api } from '../api.js';
import { h, setTitle, showMessage } from '../dom.js';
import { authPage, field, onSubmit } from '../forms.js';
import { BASE, isCurrent, state } from '../state.js';
import { resendVerificationCard } from './resend-verification.js';

/**
 * The sign-up link's page: its owner chooses the password here. Opening it sends nothing (mail
 * scanners open links too); only the form below uses the link up, creating the account or
 * claiming the one the operator made.
 */
export function verifyView(view, generation) {
  linkPasswordView(view, generation, {
    title: 'Choose your password',
    path: '/verify',
    hint: 'At least 12 characters. You sign in with it and your email.',
    submit: 'Set password',
    missing: h('p', {}, h('a', { href: BASE + '/signup' }, 'Sign up again'), ' to get a new link.'),
    done: 'Your account is ready — sign in with your new password.',
    doneTitle: 'Your account is ready',
    deadLink: verifyDeadLink,
  });
}

/** The reset link's page: a new password for the token in the URL. */
export function resetView(view, generation) {
  linkPasswordView(view, generation, {
    title: 'Choose a new password',
    path: '/reset',
    hint: 'At least 12 characters. Every signed-in session ends.',
    submit: 'Set password',
    missing: h('p', {}, h('a', { href: BASE + '/forgot' }, 'Ask for a new link')),
    done: 'Password changed — sign in with the new one.',
    doneTitle: 'Password changed',
    deadLink: () => h('p', {}, h('a', { href: BASE + '/forgot', class: 'button button--primary' }, 'Ask for a new link')),
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
  const heading = h('h1', {}, page.title);
  const done = (title, content) => {
    heading.textContent = title;
    setTitle(title);
    form.replaceWith(content);
    heading.setAttribute('tabindex', '-1');
    heading.focus();
  };
  onSubmit(
    form,
    async (data) => {
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
      done(
        page.doneTitle,
        h(
          'div',
          { class: 'stack' },
          review,
          h('p', {}, h('a', { href: BASE + '/signin', class: 'button button--primary' }, 'Continue to sign in')),
        ),
      );
      showMessage(page.done, 'success');
    },
    // A link that does not work says what to do next, in place of the form it cannot use.
    (error) => {
      if (!(error instanceof ApiError && error.status === 400 && error.reason) || !isCurrent(generation)) return false;
      showMessage(error.message.replace(/([^.])$/, '$1.'), 'error');
      done(error.reason === 'link_used' ? 'Your email is verified' : 'This link does not work', page.deadLink(error.reason));
      return true;
    },
  );
  view.append(h('div', { class: 'narrow' }, heading, form));
}

/** A sign-up link used already: its account is verified, sign in. Expired or unknown: a new one is mailed on request. */
function verifyDeadLink(reason) {
  if (reason === 'link_used' || reason === 'account_exists') {
    return h('div', { class: 'stack' }, h('p', {}, h('a', { href: BASE + '/signin', class: 'button button--primary' }, 'Sign in')));
  }
  return resendVerificationCard('Enter your email and we will send you a new link.', '');
}
