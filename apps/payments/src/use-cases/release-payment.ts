import type { PaymentReleaseRequest } from '@credit/contracts/schemas/payment';
import type { z } from 'zod';
import type { PaymentsDeps } from './payments-deps';

/** The release subject: the request was not served (4xx, 5xx, a 429), so the payment is closed unsettled. */
export async function releasePayment(request: z.output<typeof PaymentReleaseRequest>, deps: PaymentsDeps): Promise<{ released: boolean }> {
  const row = await deps.ledger.markFailed(request.paymentId, `not settled: the request was answered ${request.statusCode}`);
  return { released: row !== null };
}
