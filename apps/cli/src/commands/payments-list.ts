import { PAYMENT_STATUSES, PaymentRepository, type PaymentStatus } from '@credit/db/payment-repository';
import { EXIT_OK, UsageError } from '../cli-errors';
import { parseAddress, parseFlags, parseLimit } from '../cli-flags';
import { printJson } from '../cli-io';
import type { Command } from '../command';

const NAME = 'payments:list';
const MAX_LIMIT = 10_000;

function parseStatus(value: string): PaymentStatus {
  const status = value.trim().toLowerCase();
  if (!(PAYMENT_STATUSES as string[]).includes(status)) {
    throw new UsageError(`${NAME}: --status must be one of ${PAYMENT_STATUSES.join(', ')}, got "${value}"`);
  }
  return status as PaymentStatus;
}

/**
 * The x402 payments ledger, newest first (docs/decisions/0005): never the signed payload.
 * `--status unserved` lists the payments to refund: paid on chain, their answer never handed over
 * (a retry of the same payment within X402_ANSWER_TTL_S still takes it, and the row becomes settled).
 */
export const paymentsList: Command = {
  name: NAME,
  usage: `${NAME} [--payer <0x address>] [--status <${PAYMENT_STATUSES.join('|')}>] [--limit <n, default 100>]`,
  summary: 'list x402 payments: network, payer, amount, nonce, request, operation, status, transaction (unserved: to refund)',
  async run(args, context) {
    const flags = parseFlags(NAME, args, ['payer', 'status', 'limit']);
    const payer = flags.payer === undefined ? undefined : parseAddress(NAME, 'payer', flags.payer);
    const status = flags.status === undefined ? undefined : parseStatus(flags.status);
    const limit = flags.limit === undefined ? 100 : parseLimit(NAME, flags.limit, MAX_LIMIT);
    const rows = await new PaymentRepository(context.db()).list({
      ...(payer !== undefined ? { payer } : {}),
      ...(status !== undefined ? { status } : {}),
      limit,
    });
    printJson(
      context.io,
      rows.map((p) => ({
        id: p.id,
        network: p.network,
        x402_version: p.x402Version,
        payer: p.payer,
        pay_to: p.payTo,
        asset: p.asset,
        amount: p.amount,
        nonce: p.nonce,
        request_id: p.requestId,
        operation: p.operation,
        cu: p.cu,
        status: p.status,
        transaction: p.transaction,
        error: p.error,
        created_at: p.createdAt.toISOString(),
        updated_at: p.updatedAt.toISOString(),
      })),
    );
    return EXIT_OK;
  },
};
