// The forgotten-password page: asks for a reset link by email.
import { api } from '../api.js';
import { h, setTitle, showMessage } from '../dom.js';
import { authPage, field, onSubmit } from '../forms.js';
import { BASE } from '../state.js';

export function forgotView(view) {
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
