import type { Redis } from 'ioredis';
import type { PaymentAnswer } from '@credit/contracts/schemas/payment';
import { x402Key } from './x402-key';

/**
 * The answers paid requests were served, by payment id, for `ttlS` seconds (X402_ANSWER_TTL_S): a
 * payer whose request gave up while its settlement landed (a timeout, a dropped connection) sends
 * the same payment again and gets the answer it paid for instead of paying twice.
 */
export class AnswerStore {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly ttlS: number,
  ) {}

  private key(paymentId: string): string {
    return x402Key(this.prefix, 'answer', paymentId);
  }

  async put(paymentId: string, answer: PaymentAnswer): Promise<void> {
    await this.redis.set(this.key(paymentId), JSON.stringify(answer), 'EX', this.ttlS);
  }

  async get(paymentId: string): Promise<PaymentAnswer | undefined> {
    const text = await this.redis.get(this.key(paymentId));
    return text === null ? undefined : (JSON.parse(text) as PaymentAnswer);
  }
}
