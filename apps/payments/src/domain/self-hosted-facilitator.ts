import { x402Facilitator } from '@x402/core/facilitator';
import type { PaymentPayload, PaymentRequirements } from '@x402/core/types';
import { toFacilitatorEvmSigner } from '@x402/evm';
import { ExactEvmScheme } from '@x402/evm/exact/facilitator';
import { ExactEvmSchemeV1 } from '@x402/evm/exact/v1/facilitator';
import { createWalletClient, publicActions, type Hex } from 'viem';
import type { X402Network } from '@credit/x402/x402-settings';
import type { Facilitator } from './facilitator';
import { viemChainOf } from './payment-chain';
import { keepAliveHttp } from '@credit/http-client/keep-alive-http';
import { redactingTransport } from '@credit/chain/rpc-url-redaction';
import { recentCode, type CodeReader } from './recent-code';
import { HeadWatch } from './head-watch';
import { receiptWait, type FoundReceipts } from './receipt-wait';
import { recoverSigner } from './signature-recovery';
import type { SendLocks } from './signer-send-lock';
import { signingAccount } from './signing-account';
import { withTransferGas } from './transfer-gas';

/** How long a payer's code, as read for a signature check, is kept (recent-code.ts). */
const CODE_KEPT_MS = 30_000;

export interface SelfHostedOptions {
  privateKey: Hex;
  rpcTimeoutMs: number;
  confirmationTimeoutMs: number;
  /** By network: each payer's code as recently read, shared by the facilitators of several signers (recent-code.ts). */
  codes?: Map<string, CodeReader>;
  /** By network: the chain's head as the receipt waits read it, shared by the facilitators of several signers (head-watch.ts). */
  heads?: Map<string, HeadWatch>;
  /** The receipts its waits find, shared with the settlement's check of its transfer (receipt-wait.ts). */
  receipts?: FoundReceipts;
  /** The signer's lock on each chain, held by each of its sends from nonce to broadcast (signer-send-lock.ts). */
  sendLocks?: SendLocks;
}

/**
 * The x402 libraries' facilitator code run in this service (`@x402/core`'s x402Facilitator with
 * `@x402/evm`'s exact scheme, v2 by CAIP-2 network and v1 by network name), with one signer per
 * network that has an RPC endpoint. Settlements come through SettlementQueue, several at once per
 * signer; each transaction's nonce and broadcast are taken under the signer's send lock.
 */
export function selfHostedFacilitator(networks: readonly X402Network[], options: SelfHostedOptions): Facilitator {
  const facilitator = new x402Facilitator();
  // its transactions signed in WebAssembly (signing-account.ts)
  const account = signingAccount(options.privateKey);
  const supported = new Set<string>();
  for (const n of networks) {
    if (n.rpcUrl === undefined) continue;
    const chain = viemChainOf(n, n.rpcUrl);
    const client = createWalletClient({
      account,
      chain,
      // Provider keys in the URL never reach a log through viem's error messages.
      transport: redactingTransport(keepAliveHttp(n.rpcUrl, { timeout: options.rpcTimeoutMs, retryCount: 0 })),
    }).extend(publicActions);
    const lock = options.sendLocks?.(account.address, n.chainId);
    const sending = <T>(send: () => Promise<T>): Promise<T> => (lock ? lock.hold(send) : send());
    const writeContract: typeof client.writeContract = n.legacyTransactions
      ? (args) => sending(() => client.writeContract({ ...withTransferGas(args), type: 'legacy' } as typeof args))
      : (args) => sending(() => client.writeContract(withTransferGas(args)));
    // a smart wallet's deployment (ERC-6492) is a send of the same signer's too
    const sendTransaction: typeof client.sendTransaction = (args) => sending(() => client.sendTransaction(args));
    const codes = options.codes ?? new Map<string, CodeReader>();
    const getCode = codes.get(n.network) ?? recentCode((args) => client.getCode(args), CODE_KEPT_MS);
    codes.set(n.network, getCode);
    const heads = options.heads ?? new Map<string, HeadWatch>();
    const head = heads.get(n.network) ?? new HeadWatch(() => client.getBlockNumber({ cacheTime: 0 }));
    heads.set(n.network, head);
    // A receipt is asked for soon after the broadcast and soon again, then on each new head (receipt-wait.ts), not on viem's block polls.
    const waitForTransactionReceipt = receiptWait(client, options.confirmationTimeoutMs, {
      justSent: true,
      heads: head,
      ...(options.receipts !== undefined ? { found: options.receipts } : {}),
    });
    // A payer's signature is recovered by WebAssembly curve code, once a payment (signature-recovery.ts).
    const signer = toFacilitatorEvmSigner(
      {
        ...client,
        writeContract,
        sendTransaction,
        getCode,
        waitForTransactionReceipt,
        recoverAddress: recoverSigner,
        address: account.address,
      } as unknown as Parameters<typeof toFacilitatorEvmSigner>[0],
      { confirmationTimeoutMs: options.confirmationTimeoutMs },
    );
    facilitator.register(n.network, new ExactEvmScheme(signer));
    supported.add(`2:${n.network}`);
    if (n.v1) {
      facilitator.registerV1(n.name as never, new ExactEvmSchemeV1(signer));
      supported.add(`1:${n.name}`);
    }
  }
  return {
    supports: (x402Version, network) => supported.has(`${x402Version}:${network}`),
    verify: (payload, requirements) => facilitator.verify(payload, requirements),
    settle: (payload, requirements) => facilitator.settle(payload, requirements),
  };
}

export type { PaymentPayload, PaymentRequirements };
