import type { Redis } from 'ioredis';
import { x402Key } from './x402-key';

/** A payment's signer is kept as long as its settlement job (BullMQ keeps a failed job a week). */
const ASSIGNMENT_TTL_S = 7 * 24 * 3600;

/**
 * The payment's signer if it has one, else the next signer in turn (a counter shared by every
 * replica), recorded with SET in the same script: concurrent calls for one payment get one answer.
 * KEYS: the payment's assignment, the turn counter. ARGV: the signers, then the TTL.
 */
const ASSIGN = `
local signer = redis.call('GET', KEYS[1])
if signer then return signer end
local count = #ARGV - 1
local turn = redis.call('INCR', KEYS[2])
signer = ARGV[(turn % count) + 1]
redis.call('SET', KEYS[1], signer, 'EX', tonumber(ARGV[#ARGV]))
return signer
`;

/**
 * Which signer settles a payment: chosen once, in turn across every replica (so the signers share
 * the load evenly), and recorded in Redis beside the settlement queues, so a payment asked to
 * settle again (a retry, another replica, a restart) goes to the same signer's queue, whose job id
 * (the payment id) then settles it once. A payment is never handed to a second signer.
 */
export class SignerAssignment {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {}

  private key(suffix: string): string {
    return x402Key(this.prefix, 'signer', suffix);
  }

  /** The payment's signer, one of `signers` unless another replica (configured otherwise) chose it. */
  async assign(paymentId: string, signers: readonly string[]): Promise<string> {
    if (signers.length === 1) return signers[0]!;
    const reply = await this.redis.eval(ASSIGN, 2, this.key(`payment:${paymentId}`), this.key('turn'), ...signers, ASSIGNMENT_TTL_S);
    return String(reply);
  }
}
