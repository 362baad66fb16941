// The sign-in page. A failed sign-in offers to resend the verification email: an account exists
// once the password is chosen on the emailed link's page, so "wrong email or password" may mean
// the link was never followed. That offer is the same for every email (it reveals nothing); only
// a right password for an email not verified (403 email_not_verified) is told so outright.
import { ApiError, api } from '../api.js';
import { h, setTitle, showMessage } from '../dom.js';
import { authPage, field, onSubmit } from '../forms.js';
import { afterSignIn, navigate } from '../navigation.js';
import { BASE, signedIn } from '../state.js';
import { resendVerificationCard } from './resend-verification.js';

export function signInView(view) {
  setTitle('Sign in');
  const resendSlot = h('div');
  const form = h(
    'form',
    { class: 'card stack' },
    field('email', 'Email', { type: 'email', autocomplete: 'email', required: true }),
    field('password', 'Password', { type: 'password', autocomplete: 'current-password', required: true }),
    h('button', { type: 'submit', class: 'button button--primary' }, 'Sign in'),
  );
  onSubmit(
    form,
    async (data) => {
      resendSlot.replaceChildren();
      signedIn(await api('POST', '/signin', { email: data.get('email'), password: data.get('password') }));
      navigate(afterSignIn());
    },
    (error) => {
      const email = String(form.elements.email.value).trim();
      if (error instanceof ApiError && error.reason === 'email_not_verified') {
        showMessage('Your email is not verified yet: follow the link we emailed you, or ask for a new one below.', 'error');
        resendSlot.replaceChildren(
          resendVerificationCard('We will email you a new link; it opens the page that verifies your email.', email),
        );
        return true;
      }
      if (error instanceof ApiError && error.status === 401) {
        showMessage('Wrong email or password.', 'error');
        resendSlot.replaceChildren(
          resendVerificationCard(
            'Signed up but never chose a password? Your account exists once you choose it on the page the emailed link opens.',
            email,
          ),
        );
        form.elements.password.focus();
        return true;
      }
      return false;
    },
  );
  view.append(
    authPage(
      'Sign in',
      h('p', { class: 'muted' }, 'Your API keys and usage for the credit-scoring API.'),
      form,
      resendSlot,
      h('p', {}, h('a', { href: BASE + '/forgot' }, 'Forgot your password?')),
      h('p', {}, 'No account yet? ', h('a', { href: BASE + '/signup' }, 'Sign up')),
    ),
  );
}
