// The gateway's JSON API under /dashboard/api: one fetch wrapper that adds the CSRF token, and
// readable messages from its error bodies.
import { showMessage } from './dom.js';
import { endSession } from './navigation.js';
import { BASE, state } from './state.js';

const API = BASE + '/api';

export class ApiError extends Error {
  /** `reason`: the body's machine-readable why, when it has one (`link_used`, `email_not_verified`…). */
  constructor(status, message, reason) {
    super(message);
    this.status = status;
    this.reason = reason || null;
  }
}

/** Thrown after a 401 while signed in: the redirect to sign-in has already happened. */
export class SessionEnded extends Error {}

export async function api(method, path, body) {
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
  throw new ApiError(response.status, errorMessage(data, response), data && typeof data.reason === 'string' ? data.reason : null);
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

/** Shows a failure in the message region (an ended session has already been handled). */
export function reportError(error) {
  if (error instanceof SessionEnded) return;
  if (!(error instanceof ApiError)) console.error(error);
  showMessage(error instanceof ApiError ? error.message : 'Something went wrong. Please try again.', 'error');
}
