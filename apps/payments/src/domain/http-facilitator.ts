import { HTTPFacilitatorClient } from '@x402/core/http';
import type { Facilitator } from './facilitator';

/** An external facilitator by URL (x402's `/verify` and `/settle`): it settles, and keeps its own idempotency. */
export function httpFacilitator(url: string): Facilitator {
  const client = new HTTPFacilitatorClient({ url });
  return {
    // It answers for itself: an unsupported network comes back invalid.
    supports: () => true,
    verify: (payload, requirements) => client.verify(payload, requirements),
    settle: (payload, requirements) => client.settle(payload, requirements),
  };
}
