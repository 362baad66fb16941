// "Resend the verification email": offered by the sign-in page (an email not verified yet, or a
// sign-up whose link was never followed) and by a sign-up link's page once the link has expired.
import { api } from '../api.js';
import { h, showMessage } from '../dom.js';
import { field, onSubmit } from '../forms.js';

/** A card with its own email field (prefilled) that asks for a new link; the answer is the same for every email. */
export function resendVerificationCard(intro, email) {
  const form = h(
    'form',
    { class: 'stack', 'aria-labelledby': 'resend-title' },
    field('email', 'Email', { id: 'field-resend-email', type: 'email', autocomplete: 'email', required: true, value: email || '' }),
    h('button', { type: 'submit', class: 'button' }, 'Resend the verification email'),
  );
  onSubmit(form, async (data) => {
    const to = String(data.get('email')).trim();
    await api('POST', '/verification/resend', { email: to });
    showMessage(`If ${to} still needs verifying, we sent it a new link. Check that inbox, and its spam folder.`, 'success');
  });
  return h(
    'section',
    { class: 'card stack', 'data-testid': 'resend-verification' },
    h('h2', { id: 'resend-title' }, 'Verify your email'),
    h('p', {}, intro),
    form,
  );
}
