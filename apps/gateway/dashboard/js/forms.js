// Forms: labelled fields, validation reported in the message region, submit handling; and the
// signed-out pages' layout.
import { reportError } from './api.js';
import { h, showMessage } from './dom.js';

export function field(name, label, props, hint) {
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
export function onSubmit(form, action) {
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

export function authPage(title, ...content) {
  return h('div', { class: 'narrow' }, h('h1', {}, title), ...content);
}
