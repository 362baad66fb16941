import { parseAbi, type Address } from 'viem';
import { PaymentRepository } from '@credit/db/payment-repository';
import type { DevnetState } from '@credit/devnet/state-file';
import { paymentChainClient } from '@credit/devnet/x402-payment';
import type { RunningGateway } from '@credit/gateway/create-gateway';
import { startPaymentsService, type RunningPayments } from '@credit/test-world/payments-service';
import { REDIS_URL, startReferenceStack, type ReferenceStack, type WalletServiceName } from './reference-stack';
import { NATS_URL } from './test-stack';

const ERC20 = parseAbi(['function balanceOf(address) view returns (uint256)']);

/** Something standing between the payments service and the payment chain (a slow JSON-RPC proxy). */
export interface RpcFront {
  readonly url: string;
  close(): Promise<void>;
}

export interface PaidReferenceStackOptions {
  /** The payments service's environment beyond the devnet's x402 one (SETTLEMENT_TIMEOUT_MS, X402_ANSWER_TTL_S, ...). */
  paymentsEnv?: Record<string, string>;
  /** The paying gateway's environment beyond the x402 one (RPC_TIMEOUT_MS, rate limits, ...). */
  gatewayEnv?: Record<string, string>;
  /**
   * Puts something in front of the payment chain for the payments service only (its signer and its
   * chain reads); given the devnet's RPC URL. Closed after the payments service.
   */
  paymentsRpc?: (devnetRpcUrl: string) => Promise<RpcFront>;
}

/**
 * x402 on the reference world: the reference stack (`names`), the payments service in this
 * process with the self-hosted facilitator on the devnet's payment chain, and a gateway replica
 * that offers and takes payments. `balances` reads the devnet payer's and `payTo`'s USDC.
 */
export interface PaidReferenceStack {
  reference: ReferenceStack;
  /** The payments service running now (the one `restartPayments` started last). */
  readonly payments: RunningPayments;
  /** The gateway that takes payments (a replica with the x402 environment). */
  gateway: RunningGateway;
  ledger: PaymentRepository;
  state(): DevnetState;
  balances(): Promise<{ payer: bigint; payTo: bigint }>;
  /** Another paying gateway replica; `env` adds to the x402 environment. */
  startGateway(env?: Record<string, string>): Promise<RunningGateway>;
  /**
   * Closes the payments service and starts another in its place, `env` added to `paymentsEnv`
   * (one at a time: two would share the settlement queue, and either worker could take a job).
   */
  restartPayments(env?: Record<string, string>): Promise<RunningPayments>;
  close(): Promise<void>;
}

export async function startPaidReferenceStack(
  names: readonly WalletServiceName[],
  options: PaidReferenceStackOptions = {},
): Promise<PaidReferenceStack> {
  const reference = await startReferenceStack(names);
  const state = () => reference.world.devnet.state;
  let front: RpcFront | undefined;
  const startPayments = (env: Record<string, string> = {}) =>
    startPaymentsService({
      natsUrl: NATS_URL,
      prefix: reference.stack.prefix,
      redisUrl: REDIS_URL,
      databaseUrl: reference.stack.databaseUrl,
      payments: front === undefined ? state().payments : { ...state().payments, rpcUrl: front.url },
      env: { ...options.paymentsEnv, ...env },
    });
  let payments: RunningPayments;
  try {
    front = options.paymentsRpc === undefined ? undefined : await options.paymentsRpc(state().payments.rpcUrl);
    payments = await startPayments();
  } catch (error) {
    await front?.close();
    await reference.close();
    throw error;
  }
  const startGateway = (env: Record<string, string> = {}) =>
    reference.stack.startGatewayReplica({ ...payments.gatewayEnv, ...options.gatewayEnv, ...env });
  const gateway = await startGateway();
  return {
    reference,
    get payments() {
      return payments;
    },
    gateway,
    ledger: new PaymentRepository(reference.stack.db),
    state,
    async balances() {
      const p = state().payments;
      const client = paymentChainClient(p);
      const read = (who: Address) => client.readContract({ address: p.token, abi: ERC20, functionName: 'balanceOf', args: [who] });
      const [payer, payTo] = await Promise.all([read(state().cast.payer.address), read(p.payTo)]);
      return { payer, payTo };
    },
    startGateway,
    async restartPayments(env) {
      await payments.close();
      payments = await startPayments(env);
      return payments;
    },
    async close() {
      await payments.close();
      await front?.close();
      await reference.close();
    },
  };
}
