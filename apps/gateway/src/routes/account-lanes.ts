import { Inject, Injectable } from '@nestjs/common';
import { DomainError } from '@credit/contracts/errors';
import { AdmissionQueue, AdmissionRefused } from '@credit/rpc/admission-queue';
import { GATEWAY_CONFIG } from '../gateway-config.token';
import type { GatewayConfig } from '../config';

/**
 * Fairness between callers (issue 35): each account (an x402 caller: its client address) has a
 * lane of ACCOUNT_MAX_INFLIGHT requests this replica forwards at once; its other requests wait
 * their turn in the lane, in order, each at most `waitMs`. One account's burst therefore reaches
 * the services at most that many at a time per replica, and another account's request goes out at
 * once beside it instead of behind it. A request that cannot start in time is 503 with Retry-After
 * (its CU given back); lanes hold nothing once idle.
 */
@Injectable()
export class AccountLanes {
  private readonly lanes = new Map<string, AdmissionQueue>();

  constructor(@Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig) {}

  /**
   * Runs `send` in `owner`'s lane once it may start within `waitMs`. A lane with room starts it at
   * once, without a turn of the microtask queue (the common case, on every forwarded request).
   */
  run<T>(owner: string, waitMs: number, send: () => Promise<T>): Promise<T> {
    const lane = this.laneOf(owner);
    const entered = lane.enter(waitMs);
    if (typeof entered === 'function') return this.sendIn(owner, lane, entered, send);
    return entered.then(
      (release) => this.sendIn(owner, lane, release, send),
      (error: unknown) => {
        if (!(error instanceof AdmissionRefused)) throw error;
        throw new DomainError('service_unavailable', 'Too many of your requests are waiting; retry shortly', { retry_after: 1 });
      },
    );
  }

  private laneOf(owner: string): AdmissionQueue {
    let lane = this.lanes.get(owner);
    if (lane === undefined) {
      lane = new AdmissionQueue(this.config.ACCOUNT_MAX_INFLIGHT, this.config.ACCOUNT_MAX_QUEUED);
      this.lanes.set(owner, lane);
    }
    return lane;
  }

  /** `send`, its slot in the lane released when it settles (and the lane dropped once idle). */
  private sendIn<T>(owner: string, lane: AdmissionQueue, release: () => void, send: () => Promise<T>): Promise<T> {
    const done = () => {
      release();
      if (lane.running === 0 && lane.waiting === 0) this.lanes.delete(owner);
    };
    let sent: Promise<T>;
    try {
      sent = send();
    } catch (error) {
      done();
      return Promise.reject(error as Error);
    }
    return sent.finally(done);
  }
}
