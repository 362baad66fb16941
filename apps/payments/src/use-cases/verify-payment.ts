import type { PaymentPayload, PaymentRequirements } from '@x402/core/types';
import type { PaymentVerifyReply, PaymentVerifyRequest } from '@credit/contracts/schemas/payment';
import { authorizationOf } from '../domain/authorization';
import { replayOf } from './replay-payment';
import { paymentRefused, facilitatorUnavailable } from './payment-errors';
import type { PaymentsDeps } from './payments-deps';

/** What the ledger keeps to settle a payment later, after a crash included. */
export interface StoredPayment {
  x402Version: 1 | 2;
  payload: PaymentPayload;
  requirements: PaymentRequirements;
}

/**
 * Verifies a payment with the facilitator (signature against the token's EIP-712 domain,
 * recipient, exact amount, token, network, time window, balance), then takes its nonce: in Redis
 * (SET NX) and in the payments ledger (unique), so it pays for one request only. A payment already
 * recorded is never verified again: the same payment, settled, gets its kept answer back
 * (`replay`); anything else naming its nonce is refused.
 */
export async function verifyPayment(request: PaymentVerifyRequest, deps: PaymentsDeps): Promise<PaymentVerifyReply> {
  const payload = request.payload as unknown as PaymentPayload;
  const requirements = request.requirements as unknown as PaymentRequirements;
  const network = networkOf(request, deps);
  if (
    network === undefined ||
    !deps.facilitator.supports(request.x402Version, String(request.requirements.network)) ||
    !deps.chain.reads(network.network)
  ) {
    throw paymentRefused('unsupported_network', `Payments on ${String(request.requirements.network)} cannot be taken here`);
  }
  const authorization = authorizationOf(request.payload);
  if (authorization === undefined) throw paymentRefused('invalid_payload', 'The payment holds no EIP-3009 authorization');
  let prior;
  try {
    prior = await deps.ledger.findByNonce(network.network, authorization.from, authorization.nonce);
  } catch (error) {
    throw facilitatorUnavailable(error, deps);
  }
  if (prior !== null) return replayOf(prior, request, deps);
  let verdict;
  try {
    verdict = await deps.facilitator.verify(payload, requirements);
  } catch (error) {
    throw facilitatorUnavailable(error, deps);
  }
  if (!verdict.isValid) {
    const reason = verdict.invalidReason ?? 'invalid_payment';
    throw paymentRefused(reason, verdict.invalidMessage ? `${reason}: ${verdict.invalidMessage}` : reason);
  }
  const payer = (verdict.payer ?? authorization.from).toLowerCase();
  const now = deps.now().getTime();
  const nowS = Math.floor(now / 1000);
  let taken: boolean;
  try {
    taken = await deps.nonces.take(network.network, payer, authorization.nonce, authorization.validBefore, nowS);
  } catch (error) {
    throw facilitatorUnavailable(error, deps);
  }
  if (!taken) throw paymentRefused('payment_already_used', 'This payment was already used: sign a new one');
  const paymentId = deps.newId();
  const stored: StoredPayment = { x402Version: request.x402Version, payload, requirements };
  const outcome = await deps.ledger.reserve({
    id: paymentId,
    network: network.network,
    x402Version: request.x402Version,
    payer,
    payTo: String(requirements.payTo),
    asset: String(requirements.asset),
    amount: authorization.value,
    nonce: authorization.nonce,
    validBefore: authorization.validBefore,
    requestId: request.requestId,
    operation: request.operation,
    cu: request.cu,
    payload: stored,
    deadline: new Date(request.deadline ?? now + deps.settleWaitMs),
  });
  if (outcome === 'duplicate') throw paymentRefused('payment_already_used', 'This payment was already used: sign a new one');
  return { paymentId, payer, network: network.network };
}

/** The offered network a requirement names (v1 by name, v2 by CAIP-2). */
function networkOf(request: PaymentVerifyRequest, deps: PaymentsDeps) {
  const name = request.requirements.network;
  return deps.settings.networks.find((n) => (request.x402Version === 1 ? n.v1 && n.name === name : n.network === name));
}
