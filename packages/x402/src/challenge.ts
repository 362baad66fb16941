import { encodePaymentRequiredHeader } from '@x402/core/http';
import type { PaymentRequired, PaymentRequirements, PaymentRequirementsV1 } from '@x402/core/types';

/** x402 v1's requirement: its networks are plain names (`base`), and `outputSchema` is optional on the wire. */
export type RequirementV1 = Omit<PaymentRequirementsV1, 'network' | 'outputSchema'> & { network: string };
import { PAYMENT_TIMEOUT_SECONDS } from '@credit/contracts/payment-networks';
import { USDC_ATOMIC_PER_CU, usdOf } from '@credit/contracts/pricing';
import type { X402Network, X402Settings } from './x402-settings';

export interface ChallengeRequest {
  /** CU this request costs: the amount asked is CU × 10,000 USDC atomic units. */
  cu: number;
  /** The absolute URL of the resource (x402's `resource`). */
  resource: string;
  description: string;
  /** Where an account and an API key are made (docs/API.md §2.11 `signup_url`). */
  signupUrl: string;
}

/** One request's payment challenge: what the 402 says, in both x402 versions. */
export interface Challenge {
  message: string;
  /** The 402 body's fields beside `error` and `message` (docs/API.md §2.11, plus x402 v1). */
  body: Record<string, unknown>;
  /** Base64 of the v2 PaymentRequired: the `PAYMENT-REQUIRED` header and its `X-PAYMENT-REQUIRED` alias. */
  header: string;
  /** v1 requirements (networks in x402 v1's list), by network name. */
  v1: ReadonlyMap<string, RequirementV1>;
  /** v2 requirements, by CAIP-2 network. */
  v2: ReadonlyMap<string, PaymentRequirements>;
}

export function amountOf(cu: number): string {
  return String(BigInt(cu) * BigInt(USDC_ATOMIC_PER_CU));
}

function v1Requirement(n: X402Network, request: ChallengeRequest, payTo: string): RequirementV1 {
  return {
    scheme: 'exact',
    network: n.name,
    maxAmountRequired: amountOf(request.cu),
    resource: request.resource,
    description: request.description,
    mimeType: 'application/json',
    payTo,
    maxTimeoutSeconds: PAYMENT_TIMEOUT_SECONDS,
    asset: n.asset,
    extra: { name: n.tokenName, version: n.tokenVersion },
  };
}

function v2Requirement(n: X402Network, request: ChallengeRequest, payTo: string): PaymentRequirements {
  return {
    scheme: 'exact',
    network: n.network,
    asset: n.asset,
    amount: amountOf(request.cu),
    payTo,
    maxTimeoutSeconds: PAYMENT_TIMEOUT_SECONDS,
    extra: { name: n.tokenName, version: n.tokenVersion },
  };
}

/**
 * The 402 of docs/API.md §2.11 for one request: the body's two options (an API key, or an x402
 * payment on the first offered network), x402 v1's `x402Version` and `accepts` (v1 networks only:
 * the v1 clients reject any other name), and the v2 `PAYMENT-REQUIRED` header for every network.
 */
export function challengeOf(request: ChallengeRequest, settings: X402Settings): Challenge {
  const price = usdOf(request.cu);
  const v1 = new Map(settings.networks.filter((n) => n.v1).map((n) => [n.name, v1Requirement(n, request, settings.payTo)]));
  const v2 = new Map(settings.networks.map((n) => [n.network, v2Requirement(n, request, settings.payTo)]));
  const first = settings.networks[0]!;
  const message =
    `This request costs ${request.cu} CU: send an API key (Authorization: Bearer <key>) or pay ${price} USDC ` +
    `with x402 (X-PAYMENT or PAYMENT-SIGNATURE)`;
  const paymentRequired: PaymentRequired = {
    x402Version: 2,
    error: 'PAYMENT-SIGNATURE header is required',
    resource: { url: request.resource, description: request.description, mimeType: 'application/json' },
    accepts: [...v2.values()],
  };
  return {
    message,
    body: {
      credit_units: request.cu,
      options: [
        {
          method: 'api_token',
          description: 'A bearer API key of an account, billed in compute units',
          header: 'Authorization: Bearer <api_key>',
          cost: `${request.cu} CU`,
          signup_url: request.signupUrl,
        },
        {
          method: 'x402_payment',
          description: 'Pay this request in USDC with x402, no account needed',
          header: 'X-PAYMENT: <base64-encoded payment payload>',
          price,
          currency: 'USDC',
          network: first.name,
          pay_to: settings.payTo,
        },
      ],
      x402Version: 1,
      accepts: [...v1.values()],
    },
    header: encodePaymentRequiredHeader(paymentRequired),
    v1,
    v2,
  };
}
