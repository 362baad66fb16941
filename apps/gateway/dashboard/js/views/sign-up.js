// The sign-up page: an email only; the mailed link's page (password-link.js) sets the password.
import { api } from '../api.js';
import { h, setTitle, showMessage } from '../dom.js';
import { authPage, field, onSubmit } from '../forms.js';
import { BASE } from '../state.js';

export function signUpView(view) {
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
    const email = String(data.get('email')).trim();
    await api('POST', '/signup', { email });
    form.reset();
    showMessage(
      `Check your email: we sent a link to ${email}. Open it within 24 hours and choose your password on the page it opens. ` +
        'Nothing there after a few minutes? Check the spam folder, or sign up again.',
      'success',
    );
  });
  view.append(authPage('Create an account', form, h('p', {}, 'Already have an account? ', h('a', { href: BASE + '/signin' }, 'Sign in'))));
}
