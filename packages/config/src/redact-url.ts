/**
 * A URL as it may appear in a log line: its password and the values of its query string replaced
 * by `***` (a Redis, Postgres, SMTP or NATS URL can carry credentials in either place). The user
 * name, host, port and path stay, so the operator still sees where it points. Several URLs
 * separated by commas (a NATS server list) are each redacted; a value that is not a URL is shown
 * as `<unparseable URL>` rather than echoed, since it may be a mistyped secret.
 */
export function redactUrl(value: string): string {
  return value
    .split(',')
    .map((part) => redactOne(part.trim()))
    .join(',');
}

const HIDDEN = '***';

function redactOne(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return '<unparseable URL>';
  }
  if (url.password !== '') url.password = HIDDEN;
  for (const key of [...new Set(url.searchParams.keys())]) url.searchParams.set(key, HIDDEN);
  // `URLSearchParams` escapes the stars; the hash may hold a token as well.
  if (url.hash !== '') url.hash = HIDDEN;
  return url.toString().replaceAll('%2A%2A%2A', HIDDEN);
}
