/** One GET with a key, its status, body and how long it took; aborted (status 0) after `limitMs`. */
export async function timedGet(
  url: string,
  key: string | undefined,
  limitMs: number,
): Promise<{ status: number; body: unknown; ms: number }> {
  const started = Date.now();
  try {
    const res = await fetch(url, { headers: key ? { authorization: `Bearer ${key}` } : {}, signal: AbortSignal.timeout(limitMs) });
    const text = await res.text();
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      // not JSON: kept as text for the assertion message
    }
    return { status: res.status, body, ms: Date.now() - started };
  } catch {
    return { status: 0, body: 'no answer', ms: Date.now() - started };
  }
}
