/**
 * A URL as it may appear in a log line: its password and the values of its query string replaced
 * by `***` (a Redis, Postgres, SMTP or NATS URL can carry credentials in either place). The user
 * name, host, port and path stay, so the operator still sees where it points. Several URLs
 * separated by commas (a NATS server list) are each redacted; a value that is not a URL is shown
 * as `<unparseable URL>` rather than echoed, since it may be a mistyped secret.
 */
export function redactUrl(value: string): string {
  return eachUrl(value, (url) => {
    if (url.password !== '') url.password = HIDDEN;
    for (const key of [...new Set(url.searchParams.keys())]) url.searchParams.set(key, HIDDEN);
    // `URLSearchParams` escapes the stars; the hash may hold a token as well.
    if (url.hash !== '') url.hash = HIDDEN;
    return url.toString().replaceAll('%2A%2A%2A', HIDDEN);
  });
}

/**
 * A chain's RPC URL (or a facilitator's) as it may appear in a log line or an error: scheme, host
 * and port only. RPC providers put their API key anywhere in the URL (a path segment, a query
 * parameter, user info), so nothing past the host is kept, and `/…` says something was there:
 * `https://eth.example.com:8443/v2/KEY?x=y` → `https://eth.example.com:8443/…`.
 */
export function redactUrlToHost(value: string): string {
  return eachUrl(value, (url) => {
    const rest = url.pathname.length > 1 || url.search !== '' || url.hash !== '' || url.username !== '' ? '/…' : '';
    return `${url.protocol}//${url.host}${rest}`;
  });
}

const URL_IN_TEXT = /\b(?:https?|wss?):\/\/[^\s"'<>`)]+/gi;

/** Every http(s) / ws(s) URL in a text (an error message, a stack) cut down by `redactUrlToHost`. */
export function redactUrlsIn(text: string): string {
  return text.replace(URL_IN_TEXT, (url) => redactUrlToHost(url));
}

const HIDDEN = '***';

/** Each of the comma-separated URLs of `value` through `redact`; one that does not parse, never echoed. */
function eachUrl(value: string, redact: (url: URL) => string): string {
  return value
    .split(',')
    .map((part) => {
      let url: URL;
      try {
        url = new URL(part.trim());
      } catch {
        return '<unparseable URL>';
      }
      return redact(url);
    })
    .join(',');
}
