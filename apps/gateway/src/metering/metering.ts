import { Inject, Injectable, Logger } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { DomainError } from '@credit/contracts/errors';
import { allowanceOf, type PlanName } from '@credit/contracts/pricing';
import type { UsageReport } from '@credit/contracts/schemas/user';
import { Meter, type Admission, type AdmitRequest, type RatePolicy, type Reservation } from '@credit/metering/meter';
import type { AuthContext } from '../auth/auth-context';
import { GATEWAY_CONFIG } from '../gateway-config.token';
import type { GatewayConfig } from '../config';
import { cuCharged, cuRefused } from '../observability/gateway-metrics';
import { setCuHeaders, setRateLimitHeaders } from './rate-limit-headers';
import { spanUntilSettled } from '@credit/telemetry/tracing';

const WINDOW_MS = 60_000;

/** The rate limits a request can fall under: the API's (per plan) and the usage endpoint's own. */
export type LimitKind = 'api' | 'usage';

/**
 * Who a metered request charges: the account, and the API key it came with (null: the account
 * itself, from the dashboard, which the ledger records with no key).
 */
export interface MeteredPayer {
  account: AuthContext['account'];
  keyId: string | null;
}

/** A request to admit: its operation, the CU to reserve (0: rate limit only), and whose limit. */
export interface MeteredRequest {
  operation: string;
  cost: number;
  requestId: string;
  limit: LimitKind;
}

/**
 * The gateway's metering use case (docs/ARCHITECTURE.md, "Metering"): admits a request against
 * its account's rate limit and monthly allowance (reserving its CU), settles the reservation once
 * the response is known, and reads the month's usage. Redis unreachable → 503: never free service.
 */
@Injectable()
export class Metering {
  private readonly logger = new Logger('metering');
  private readonly apiPolicies: Record<PlanName, RatePolicy>;
  private readonly usagePolicy: RatePolicy;
  private readonly payerPolicy: RatePolicy;
  private readonly unverifiedPolicy: RatePolicy;
  readonly enabled: boolean;

  constructor(
    private readonly meter: Meter,
    @Inject(GATEWAY_CONFIG) config: GatewayConfig,
  ) {
    this.enabled = config.METERING === 'on';
    const api = (capacity: number): RatePolicy => ({ name: 'api', capacity, windowMs: WINDOW_MS });
    this.apiPolicies = {
      free: api(config.RATE_LIMIT_FREE_PER_MIN),
      pro: api(config.RATE_LIMIT_PRO_PER_MIN),
      enterprise: api(config.RATE_LIMIT_ENTERPRISE_PER_MIN),
    };
    this.usagePolicy = { name: 'usage', capacity: config.USAGE_RATE_LIMIT_PER_MIN, windowMs: WINDOW_MS };
    this.payerPolicy = { name: 'x402', capacity: config.RATE_LIMIT_X402_PER_MIN, windowMs: WINDOW_MS };
    this.unverifiedPolicy = { name: 'x402_client', capacity: config.RATE_LIMIT_X402_UNVERIFIED_PER_MIN, windowMs: WINDOW_MS };
  }

  /**
   * An x402 request has no account: its rate limit is its payer's (no CU; the payment is its
   * charge), counted once its payment is verified: `payer` is the signer the payments service
   * recovered, never an address the request merely claims. Sets the RateLimit headers; a refusal
   * is thrown as its 429.
   */
  admitPayer(reply: FastifyReply, payer: string, requestId: string): void | Promise<void> {
    return this.admitRate(reply, `x402:${payer.toLowerCase()}`, this.payerPolicy, `the payer ${payer}`, requestId);
  }

  /**
   * A request with an x402 payment header, before anything of it is verified: limited per client
   * address (`request.ip`, as the trusted proxies report it), so unverified payments cost the
   * gateway one Redis call each beyond the limit and the payments service nothing.
   */
  admitClient(reply: FastifyReply, ip: string, requestId: string): void | Promise<void> {
    return this.admitRate(reply, `x402-client:${ip}`, this.unverifiedPolicy, `the client address ${ip}`, requestId);
  }

  private admitRate(reply: FastifyReply, bucket: string, policy: RatePolicy, who: string, requestId: string): void | Promise<void> {
    if (!this.enabled) return;
    let admission: Admission | Promise<Admission>;
    try {
      admission = redisSpan(
        'admit',
        this.meter.admit({
          accountId: bucket,
          keyId: null,
          operation: 'x402',
          cost: 0,
          allowance: null,
          policy,
          requestId,
        }),
      );
    } catch (error) {
      throw this.unavailable(error);
    }
    if (!(admission instanceof Promise)) return this.decideRate(reply, who, admission);
    return admission.then(
      (value) => this.decideRate(reply, who, value),
      (error: unknown) => {
        throw this.unavailable(error);
      },
    );
  }

  private decideRate(reply: FastifyReply, who: string, admission: Admission): void {
    setRateLimitHeaders(reply, admission.rate);
    if (admission.kind === 'rate_limited') throw rateLimited(reply, admission.rate.policy, admission.retryAfterMs, who);
  }

  policy(kind: LimitKind, plan: PlanName): RatePolicy {
    return kind === 'usage' ? this.usagePolicy : this.apiPolicies[plan];
  }

  /**
   * Applies the rate limit, then reserves `cost` CU (0: rate limit only). Sets the RateLimit
   * headers; a refusal is thrown as its 429 (nothing charged). Gives the reservation to settle, if
   * any CU were reserved; synchronously when a free request was admitted from the local lease.
   */
  admit(reply: FastifyReply, auth: MeteredPayer, request: MeteredRequest): Reservation | undefined | Promise<Reservation | undefined> {
    if (!this.enabled) return undefined;
    const { account } = auth;
    const allowance = allowanceOf(account.plan, account.monthlyCu);
    let admission: Admission | Promise<Admission>;
    try {
      admission = redisSpan('admit', this.meter.admit(this.admitRequest(auth, request, allowance)));
    } catch (error) {
      throw this.unavailable(error);
    }
    if (!(admission instanceof Promise)) return this.decide(reply, account, request, allowance, admission);
    return this.decided(reply, account, request, allowance, admission);
  }

  /**
   * For a read (a subject that may run twice), when the meter lets it run ahead of its admission
   * (`Meter.admitAhead`): the admission's outcome, which the caller awaits before the answer
   * leaves; it rejects with the refusal's 429 (or 503 with Redis away), and the service's answer is
   * then dropped. Undefined: `admit`, and wait for it before serving.
   */
  admitAhead(reply: FastifyReply, auth: MeteredPayer, request: MeteredRequest): Promise<Reservation | undefined> | undefined {
    if (!this.enabled) return undefined;
    const { account } = auth;
    const allowance = allowanceOf(account.plan, account.monthlyCu);
    let admission: Promise<Admission> | undefined;
    try {
      admission = redisSpan('admit', this.meter.admitAhead(this.admitRequest(auth, request, allowance)));
    } catch (error) {
      throw this.unavailable(error);
    }
    return admission && this.decided(reply, account, request, allowance, admission);
  }

  private admitRequest(auth: MeteredPayer, request: MeteredRequest, allowance: number | null): AdmitRequest {
    return {
      accountId: auth.account.id,
      keyId: auth.keyId,
      operation: request.operation,
      cost: request.cost,
      allowance,
      policy: this.policy(request.limit, auth.account.plan),
      requestId: request.requestId,
    };
  }

  private decided(
    reply: FastifyReply,
    account: AuthContext['account'],
    request: MeteredRequest,
    allowance: number | null,
    admission: Promise<Admission>,
  ): Promise<Reservation | undefined> {
    return admission.then(
      (value) => this.decide(reply, account, request, allowance, value),
      (error: unknown) => {
        throw this.unavailable(error);
      },
    );
  }

  private decide(
    reply: FastifyReply,
    account: AuthContext['account'],
    request: { cost: number; limit: LimitKind },
    allowance: number | null,
    admission: Admission,
  ): Reservation | undefined {
    const policy = admission.rate.policy;
    setRateLimitHeaders(reply, admission.rate);
    switch (admission.kind) {
      case 'admitted':
        if (admission.reservation === undefined && request.cost === 0 && request.limit === 'api') setCuHeaders(reply, 0, null);
        return admission.reservation;
      case 'rate_limited':
        cuRefused.inc({ reason: 'rate_limited' });
        throw rateLimited(reply, policy, admission.retryAfterMs, `the ${account.plan} plan`);
      case 'credit_exceeded': {
        cuRefused.inc({ reason: 'credit_limit_exceeded' });
        const limit = allowance ?? 0;
        setCuHeaders(reply, 0, limit - admission.used);
        throw new DomainError(
          'credit_limit_exceeded',
          `Monthly CU allowance exceeded: this request costs ${request.cost} CU and ${Math.max(limit - admission.used, 0)} of ` +
            `the ${account.plan} plan's ${limit} CU remain until ${admission.period.end.toISOString()}`,
          {
            plan: account.plan,
            monthly_limit: limit,
            used: admission.used,
            remaining: Math.max(limit - admission.used, 0),
            period_end: admission.period.end.toISOString(),
          },
        );
      }
    }
  }

  private unavailable(error: unknown): DomainError {
    cuRefused.inc({ reason: 'metering_unavailable' });
    this.logger.warn(`metering unavailable: ${(error as Error).message}`);
    return unavailable();
  }

  /**
   * Keeps `served` CU of the reservation and gives back the rest; sets X-CU-Cost and
   * X-CU-Remaining. A refund Redis cannot take is logged (the charge then stands). Synchronous
   * (undefined) when everything reserved was served: nothing goes to Redis then.
   */
  settle(reply: FastifyReply, reservation: Reservation, served: number, statusCode: number): Promise<void> | undefined {
    const kept = Math.min(Math.max(served, 0), reservation.reserved);
    if (kept > 0) cuCharged.inc({ operation: reservation.operation }, kept);
    if (kept === reservation.reserved) {
      setCuHeaders(reply, kept, reservation.allowance === null ? null : reservation.allowance - reservation.used);
      return undefined;
    }
    return this.refund(reply, reservation, kept, statusCode);
  }

  private async refund(reply: FastifyReply, reservation: Reservation, kept: number, statusCode: number): Promise<void> {
    let used: number | null = reservation.used - (reservation.reserved - kept);
    try {
      used = (await redisSpan('refund', this.meter.settle(reservation, kept, statusCode))) ?? used;
    } catch (error) {
      used = reservation.used;
      this.logger.error(
        `refund of ${reservation.reserved - kept} CU for charge ${reservation.chargeId} failed: ${(error as Error).message}`,
      );
    }
    setCuHeaders(reply, kept, reservation.allowance === null ? null : reservation.allowance - used);
  }

  /** `GET /users/me/usage`: the month's counter, with the plan and the period. */
  async usage(account: AuthContext['account']): Promise<UsageReport> {
    const usage = await redisSpan('usage', this.meter.usage(account.id)).catch((error: unknown) => {
      this.logger.warn(`metering unavailable: ${(error as Error).message}`);
      throw unavailable();
    });
    const limit = allowanceOf(account.plan, account.monthlyCu);
    return {
      plan: account.plan,
      monthly_limit: limit,
      used: usage.used,
      remaining: limit === null ? null : Math.max(limit - usage.used, 0),
      period_start: usage.period.start.toISOString(),
      period_end: usage.period.end.toISOString(),
      by_operation: usage.byOperation,
    };
  }
}

/** A call to the metering's Redis scripts as a span of the request (tracing on); an answer from the local lease is none. */
function redisSpan<R>(call: string, result: R): R {
  return result instanceof Promise ? (spanUntilSettled(`metering ${call}`, { 'db.system.name': 'redis' }, result) as R) : result;
}

/** The 429 of a rate limit, with `Retry-After`; `who` names whose limit it is. */
function rateLimited(reply: FastifyReply, policy: RatePolicy, retryAfterMs: number, who: string): DomainError {
  const seconds = Math.max(1, Math.ceil(retryAfterMs / 1000));
  void reply.header('retry-after', String(seconds));
  return new DomainError('rate_limited', `Rate limit exceeded: ${policy.capacity} requests a minute for ${who}; retry after ${seconds} s`, {
    retry_after: seconds,
  });
}

function unavailable(): DomainError {
  return new DomainError('service_unavailable', 'Metering is unavailable; try again shortly');
}
