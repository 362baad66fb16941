import type { PaymentRequirements } from '@x402/core/types';
import type { Challenge, RequirementV1 } from './challenge';

/** A payment header the gateway cannot use: answered 402 with `reason`, nothing verified or moved. */
export class PaymentRejected extends Error {
  constructor(
    readonly reason: string,
    message: string,
  ) {
    super(message);
    this.name = 'PaymentRejected';
  }
}

/** A decoded payment and the requirement of this request's challenge it answers. */
export interface OfferedPayment {
  x402Version: 1 | 2;
  payload: Record<string, unknown>;
  requirements: RequirementV1 | PaymentRequirements;
}

const MAX_HEADER_LENGTH = 16 * 1024;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function decode(name: string, value: string): Record<string, unknown> {
  if (value.length > MAX_HEADER_LENGTH)
    throw new PaymentRejected('invalid_payment_header', `${name} is longer than ${MAX_HEADER_LENGTH} characters`);
  const text = value.trim();
  if (!/^[A-Za-z0-9+/_-]+={0,2}$/.test(text)) throw new PaymentRejected('invalid_payment_header', `${name} is not base64`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(text, 'base64').toString('utf8'));
  } catch {
    throw new PaymentRejected('invalid_payment_header', `${name} is not base64-encoded JSON`);
  }
  if (!isRecord(parsed)) throw new PaymentRejected('invalid_payment_header', `${name} does not hold a JSON object`);
  return parsed;
}

/** The payload's shape only: whose it is, the payments service proves (the signer it recovers). */
function requireAuthorization(name: string, payload: unknown): void {
  const authorization = isRecord(payload) ? payload.authorization : undefined;
  const from = isRecord(authorization) ? authorization.from : undefined;
  if (!isRecord(payload) || typeof payload.signature !== 'string' || typeof from !== 'string' || !/^0x[0-9a-fA-F]{40}$/.test(from)) {
    throw new PaymentRejected('invalid_payload', `${name} holds no EIP-3009 authorization with a signature`);
  }
}

/**
 * Reads `PAYMENT-SIGNATURE` (x402 v2) or `X-PAYMENT` (v1) and picks the requirement of `challenge`
 * it pays: same scheme and network. Whether it pays enough, to the right address, in the right
 * token, in time, with a valid signature and the funds is the facilitator's check.
 */
export function offeredPayment(headers: { paymentSignature?: string; xPayment?: string }, challenge: Challenge): OfferedPayment {
  if (headers.paymentSignature !== undefined) {
    const decoded = decode('PAYMENT-SIGNATURE', headers.paymentSignature);
    const accepted = decoded.accepted;
    if (decoded.x402Version !== 2 || !isRecord(accepted)) {
      throw new PaymentRejected('invalid_x402_version', 'PAYMENT-SIGNATURE must hold an x402 version 2 payload with `accepted`');
    }
    const requirements = typeof accepted.network === 'string' ? challenge.v2.get(accepted.network) : undefined;
    if (requirements === undefined || accepted.scheme !== 'exact') {
      throw new PaymentRejected('unsupported_scheme', `payments are accepted with scheme exact on ${[...challenge.v2.keys()].join(', ')}`);
    }
    requireAuthorization('PAYMENT-SIGNATURE', decoded.payload);
    return { x402Version: 2, payload: decoded, requirements };
  }
  const decoded = decode('X-PAYMENT', headers.xPayment ?? '');
  if (decoded.x402Version !== 1) throw new PaymentRejected('invalid_x402_version', 'X-PAYMENT must hold an x402 version 1 payload');
  const requirements = typeof decoded.network === 'string' ? challenge.v1.get(decoded.network) : undefined;
  if (requirements === undefined || decoded.scheme !== 'exact') {
    throw new PaymentRejected(
      'unsupported_scheme',
      `x402 v1 payments are accepted with scheme exact on ${[...challenge.v1.keys()].join(', ')}`,
    );
  }
  requireAuthorization('X-PAYMENT', decoded.payload);
  return { x402Version: 1, payload: decoded, requirements };
}
