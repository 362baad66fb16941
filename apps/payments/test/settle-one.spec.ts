import type { PaymentRecord } from '@credit/db/payment-repository';
import type { AuthorizationUse } from '../src/domain/payment-chain';
import type { PaymentsDeps } from '../src/use-cases/payments-deps';
import { settleOne } from '../src/use-cases/settle-one';

/**
 * One settlement as its signer's queue runs it, with fakes of the ledger, the chain and the
 * facilitator: when the chain is asked before sending (a re-run, or a request that stopped
 * waiting) and when it is not (a first run: nothing was sent for it yet), and what decides then.
 */
const NOW = Date.parse('2026-11-28T22:00:00Z');
const TX = `0x${'ab'.repeat(32)}`;

function world(options: { before?: AuthorizationUse; after?: AuthorizationUse; sends?: 'paid' | 'fails' | 'busy' }) {
  const payment: PaymentRecord = {
    id: 'p1',
    network: 'eip155:84532',
    x402Version: 1,
    payer: `0x${'11'.repeat(20)}`,
    payTo: `0x${'22'.repeat(20)}`,
    asset: `0x${'33'.repeat(20)}`,
    amount: '10000',
    nonce: `0x${'44'.repeat(32)}`,
    validBefore: NOW / 1000 + 600,
    requestId: 'r1',
    operation: 'score',
    cu: 1,
    payload: { x402Version: 1, payload: { stands: 'for the payload' }, requirements: { stands: 'for the requirement' } },
    deadline: new Date(NOW + 10_000),
    status: 'reserved',
    transaction: null,
    error: null,
    createdAt: new Date(NOW),
    updatedAt: new Date(NOW),
  };
  const calls: string[] = [];
  const marked: string[] = [];
  const deps = {
    now: () => new Date(NOW),
    ledger: {
      find: async () => payment,
      markPaid: async (_id: string, transaction: string) => {
        marked.push(`paid ${transaction}`);
        return { ...payment, status: 'unserved' as const, transaction };
      },
      markFailed: async (_id: string, error: string) => {
        marked.push(`failed ${error}`);
        return { ...payment, status: 'failed' as const, error };
      },
    },
    chain: {
      authorizationUse: async () => {
        calls.push('authorizationUse');
        return calls.includes('settle') ? (options.after ?? { kind: 'unused' }) : (options.before ?? { kind: 'unused' });
      },
      confirms: async (_expected: unknown, transaction: string) => {
        calls.push('confirms');
        return { kind: 'paid', transaction } as AuthorizationUse;
      },
    },
  } as unknown as PaymentsDeps;
  const facilitator = {
    settle: async () => {
      calls.push('settle');
      if (options.sends === 'busy')
        return { success: false, errorReason: "signer_busy: the signer's send lock (k) stayed held for 2000 ms", transaction: '' };
      return options.sends === 'fails'
        ? { success: false, errorReason: 'execution reverted', transaction: '', network: payment.network }
        : { success: true, transaction: TX, network: payment.network, payer: payment.payer };
    },
  };
  return { deps, facilitator, calls, marked };
}

it('a first run, its request waiting: sent without asking the chain first, and paid once its transfer is confirmed', async () => {
  const w = world({});
  expect(await settleOne('p1', NOW + 5_000, w.deps, w.facilitator as never, true)).toMatchObject({ ok: true, transaction: TX });
  expect(w.calls).toEqual(['settle', 'confirms']);
  expect(w.marked).toEqual([`paid ${TX}`]);
});

it('a re-run asks the chain first: its own earlier transfer found there is the payment, and nothing is sent again', async () => {
  const w = world({ before: { kind: 'paid', transaction: TX } });
  expect(await settleOne('p1', NOW + 5_000, w.deps, w.facilitator as never, false)).toMatchObject({ ok: true, transaction: TX });
  expect(w.calls).toEqual(['authorizationUse']);
});

it('a first run whose request stopped waiting asks the chain, and sends nothing', async () => {
  const w = world({});
  expect(await settleOne('p1', NOW - 1, w.deps, w.facilitator as never, true)).toMatchObject({ ok: false, reason: 'settlement_abandoned' });
  expect(w.calls).toEqual(['authorizationUse']);
});

it('a first run whose authorization the payer spent meanwhile: the send fails, the chain is asked after it and decides', async () => {
  const spent: AuthorizationUse = { kind: 'misused', reason: 'authorization_used_elsewhere', message: 'moved 0 to the payer' };
  const w = world({ after: spent, sends: 'fails' });
  expect(await settleOne('p1', NOW + 5_000, w.deps, w.facilitator as never, true)).toMatchObject({
    ok: false,
    reason: 'authorization_used_elsewhere',
  });
  expect(w.calls).toEqual(['settle', 'authorizationUse']);
  expect(w.marked).toEqual(['failed authorization_used_elsewhere: moved 0 to the payer']);
});

it('a send that never got its signer (a killed replica still held it) is tried again, the payment not failed', async () => {
  const w = world({ sends: 'busy' });
  await expect(settleOne('p1', NOW + 5_000, w.deps, w.facilitator as never, true)).rejects.toThrow(/signer_busy/);
  expect(w.calls).toEqual(['settle', 'authorizationUse']);
  expect(w.marked).toEqual([]);
});
