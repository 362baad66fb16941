/**
 * A value as the UTF-8 bytes of its JSON, for a NATS payload. `Buffer.from` takes short strings
 * from a pooled slab; Node's `TextEncoder.encode` allocates a new ArrayBuffer per call and is
 * about five times slower at this size (docs/decisions/0002-hot-path.md).
 */
export function jsonBytes(value: unknown): Uint8Array {
  return Buffer.from(JSON.stringify(value), 'utf8');
}
