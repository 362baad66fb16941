// Forms: labelled fields, each with its own error under it (our words, for the page's checks and
// the server's alike), submit handling; and the signed-out pages' layout.
import { ApiError, reportError } from './api.js';
import { h, showMessage } from './dom.js';

/** A labelled input; `props.id` names it when a page has two fields of one name (default `field-<name>`). */
export function field(name, label, props, hint) {
  const id = (props && props.id) || `field-${name}`;
  const hintId = hint ? `${id}-hint` : null;
  const errorId = `${id}-error`;
  return h(
    'div',
    { class: 'field' },
    h('label', { for: id }, label),
    hint && h('p', { id: hintId, class: 'hint' }, hint),
    h('input', { ...props, id, name, 'aria-describedby': [hintId, errorId].filter(Boolean).join(' ') }),
    // Announced when it changes; empty (and hidden by :empty) while the field is fine.
    h('p', { id: errorId, class: 'field-error', 'aria-live': 'polite', 'data-testid': `${id}-error` }),
  );
}

/** Our words for what is wrong with a field, or '' (the browser's checks, its wording never shown). */
function problemOf(input) {
  const label = input.labels && input.labels[0] ? input.labels[0].textContent.toLowerCase() : 'this field';
  const value = input.value.trim();
  if (input.required && !value) return `Enter your ${label}.`.replace('your name', 'a name');
  if (input.type === 'email' && value && (input.validity.typeMismatch || !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value))) {
    return 'Enter an email address like name@example.com.';
  }
  if (input.minLength > 0 && input.value.length < input.minLength) {
    return `Use at least ${input.minLength} characters (this has ${input.value.length}).`;
  }
  if (input.maxLength > 0 && input.value.length > input.maxLength) return `Use at most ${input.maxLength} characters.`;
  return '';
}

/**
 * Puts each problem under its field ({name: text}), marks every bad field aria-invalid at once and
 * clears the others, focuses the first bad one; true when there was one.
 */
export function showFieldErrors(form, problems) {
  let first = null;
  for (const input of form.querySelectorAll('input[name]')) {
    const problem = problems[input.name] || '';
    input.toggleAttribute('aria-invalid', Boolean(problem));
    if (problem) input.setAttribute('aria-invalid', 'true');
    const error = form.querySelector(`#${input.id}-error`);
    if (error) error.textContent = problem;
    if (problem && !first) first = input;
  }
  if (first) first.focus();
  return first !== null;
}

function validateForm(form) {
  const problems = {};
  for (const input of form.querySelectorAll('input[name]')) {
    if (!input.readOnly && !input.disabled) problems[input.name] = problemOf(input);
  }
  return !showFieldErrors(form, problems);
}

/**
 * A 400 that names fields ("email: must be an email address; password: …") as {name: text}, for
 * the fields this form has; null when it names none of them.
 */
function serverProblems(form, error) {
  if (!(error instanceof ApiError) || error.status !== 400) return null;
  const problems = {};
  for (const part of error.message.split('; ')) {
    const match = /^([A-Za-z_][\w.]*): (.+)$/.exec(part);
    if (!match || !form.querySelector(`input[name="${match[1]}"]`)) continue;
    const text = match[2].trim();
    problems[match[1]] = text.charAt(0).toUpperCase() + text.slice(1) + (/[.!?]$/.test(text) ? '' : '.');
  }
  return Object.keys(problems).length ? problems : null;
}

/**
 * Runs `action(formData)` on submit with the button disabled meanwhile. Our checks run first (the
 * browser's are off: novalidate); a server 400 naming fields goes under them; other errors go to
 * the message region, or to `onError(error)` when it returns true (it handled them).
 */
export function onSubmit(form, action, onError) {
  form.noValidate = true;
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    if (form.getAttribute('aria-busy') === 'true') return;
    if (!validateForm(form)) return showMessage(null);
    const buttons = form.querySelectorAll('button');
    form.setAttribute('aria-busy', 'true');
    buttons.forEach((button) => (button.disabled = true));
    let failure = null;
    try {
      await action(new FormData(form));
    } catch (error) {
      failure = error;
    } finally {
      form.removeAttribute('aria-busy');
      buttons.forEach((button) => (button.disabled = false));
    }
    if (failure === null) return;
    const problems = serverProblems(form, failure);
    if (problems) {
      showMessage(null);
      showFieldErrors(form, problems);
    } else if (!(onError && onError(failure))) {
      reportError(failure);
    }
  });
  return form;
}

export function authPage(title, ...content) {
  return h('div', { class: 'narrow' }, h('h1', {}, title), ...content);
}
