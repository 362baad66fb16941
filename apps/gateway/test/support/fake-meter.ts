import type { Admission, AdmitRequest, Reservation } from '@credit/metering/meter';
import type { Period } from '@credit/metering/period';

/** What the fake meter answers an admission: admitted, or one of the meter's refusals. */
export type FakeDecision = 'admitted' | 'rate_limited' | 'credit_exceeded';

const PERIOD: Period = { id: '2026-11', start: new Date('2026-11-01T00:00:00Z'), end: new Date('2026-12-01T00:00:00Z') };

/**
 * The `Meter` the real `Metering` use case runs over in the route harness: no Redis. It admits or
 * refuses as told, records every admission and settlement, and keeps one account's counter so a
 * test can see what a request was charged in the end.
 */
export class FakeMeter {
  readonly admitted: AdmitRequest[] = [];
  readonly settled: { reservation: Reservation; served: number; statusCode: number }[] = [];
  /** The counter: CU reserved, less what settlements gave back. */
  used = 0;
  decision: FakeDecision = 'admitted';
  /** Let charged reads run ahead of their admission (`admitAhead`), with this decision. */
  runAhead: FakeDecision | undefined;
  private charges = 0;

  admit(request: AdmitRequest): Admission | Promise<Admission> {
    const admission = this.decide(request, this.decision);
    // A free request is admitted synchronously, as from the meter's local lease.
    return request.cost === 0 ? admission : Promise.resolve(admission);
  }

  admitAhead(request: AdmitRequest): Promise<Admission> | undefined {
    if (this.runAhead === undefined || request.cost === 0) return undefined;
    return Promise.resolve(this.decide(request, this.runAhead));
  }

  settle(reservation: Reservation, served: number, statusCode: number): Promise<number | null> {
    this.settled.push({ reservation, served, statusCode });
    this.used -= reservation.reserved - served;
    return Promise.resolve(this.used);
  }

  usage(): Promise<{ period: Period; used: number; byOperation: Record<string, number> }> {
    return Promise.resolve({ period: PERIOD, used: this.used, byOperation: {} });
  }

  /** CU reserved by admissions, less what settlements gave back: what the requests cost in the end. */
  get charged(): number {
    return this.used;
  }

  private decide(request: AdmitRequest, decision: FakeDecision): Admission {
    this.admitted.push(request);
    const rate = { policy: request.policy, remaining: request.policy.capacity - 1, resetSeconds: 1 };
    if (decision === 'rate_limited') return { kind: 'rate_limited', rate, retryAfterMs: 1_000 };
    if (decision === 'credit_exceeded') return { kind: 'credit_exceeded', rate, period: PERIOD, used: this.used };
    if (request.cost === 0) return { kind: 'admitted', rate, reservation: undefined };
    this.used += request.cost;
    return {
      kind: 'admitted',
      rate,
      reservation: {
        chargeId: `charge-${++this.charges}`,
        accountId: request.accountId,
        keyId: request.keyId,
        operation: request.operation,
        requestId: request.requestId,
        period: PERIOD,
        reserved: request.cost,
        allowance: request.allowance,
        used: this.used,
      },
    };
  }
}
