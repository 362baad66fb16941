// The sign-in page.
import { api } from '../api.js';
import { h, setTitle } from '../dom.js';
import { authPage, field, onSubmit } from '../forms.js';
import { navigate } from '../navigation.js';
import { BASE, signedIn } from '../state.js';

export function signInView(view) {
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
