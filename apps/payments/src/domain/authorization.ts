/** The EIP-3009 authorization inside an exact-scheme payload (both x402 versions carry it so). */
export interface Authorization {
  from: string;
  to: string;
  value: string;
  validAfter: number;
  validBefore: number;
  nonce: string;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The authorization of a verified payload; undefined when it has none (a scheme this service does not settle). */
export function authorizationOf(payload: Record<string, unknown>): Authorization | undefined {
  const inner = payload.payload;
  const a = isRecord(inner) ? inner.authorization : undefined;
  if (!isRecord(a)) return undefined;
  const { from, to, value, validAfter, validBefore, nonce } = a;
  if (typeof from !== 'string' || typeof to !== 'string' || typeof nonce !== 'string' || !/^0x[0-9a-fA-F]{64}$/.test(nonce))
    return undefined;
  const after = Number(validAfter);
  const before = Number(validBefore);
  if (!Number.isFinite(after) || !Number.isFinite(before)) return undefined;
  return { from: from.toLowerCase(), to, value: String(value), validAfter: after, validBefore: before, nonce: nonce.toLowerCase() };
}
