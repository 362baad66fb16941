/** A Redis key of the payments service: `<prefix>:x402:<parts…>`, or `x402:<parts…>` without a stack prefix. */
export function x402Key(prefix: string, ...parts: string[]): string {
  return `${prefix ? `${prefix}:` : ''}x402:${parts.join(':')}`;
}
