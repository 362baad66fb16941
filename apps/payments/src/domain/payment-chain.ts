import {
  createPublicClient,
  decodeEventLog,
  defineChain,
  getAddress,
  isAddressEqual,
  parseAbi,
  type Address,
  type Chain,
  type Hex,
  type Log,
  type PublicClient,
  type TransactionReceipt,
} from 'viem';
import type { X402Network } from '@credit/x402/x402-settings';
import { keepAliveHttp } from '@credit/http-client/keep-alive-http';
import { redactingTransport } from '@credit/chain/rpc-url-redaction';
import { receiptWait, type FoundReceipts, type ReceiptWait } from './receipt-wait';

const AUTHORIZATION_STATE = parseAbi(['function authorizationState(address authorizer, bytes32 nonce) view returns (bool)']);
const EVENTS = parseAbi([
  'event AuthorizationUsed(address indexed authorizer, bytes32 indexed nonce)',
  'event AuthorizationCanceled(address indexed authorizer, bytes32 indexed nonce)',
  'event Transfer(address indexed from, address indexed to, uint256 value)',
]);
/** How far back a used authorization's transaction is looked for (a settlement is recent). */
const LOOKBACK_BLOCKS = 5_000n;

/** The transfer a payment promised: `amount` of `asset` from `payer` to `payTo`, under `nonce`. */
export interface ExpectedTransfer {
  network: string;
  asset: string;
  payer: string;
  payTo: string;
  amount: string;
  nonce: string;
}

/**
 * What the chain says of a payment's authorization: unused; used by a transaction that moved
 * exactly the promised transfer (`paid`); used any other way (cancelled, spent on another transfer:
 * `misused`, with the reason); or not readable now (`unknown`: the chain unreachable, no RPC).
 */
export type AuthorizationUse =
  | { kind: 'unused' }
  | { kind: 'paid'; transaction: string }
  | { kind: 'misused'; reason: string; message: string }
  | { kind: 'unknown'; message: string };

/** The payments service's reads of the payment chains: whether a payment's own transfer is on chain. */
export interface PaymentChain {
  /** Whether this network can be read (an RPC endpoint is configured). */
  reads(network: string): boolean;
  /** How the authorization was used, if at all: found by its AuthorizationUsed log, checked by its receipt. */
  authorizationUse(expected: ExpectedTransfer): Promise<AuthorizationUse>;
  /** Whether `transaction` (a settlement's, as its facilitator names it) moved exactly the promised transfer. */
  confirms(expected: ExpectedTransfer, transaction: string): Promise<AuthorizationUse>;
}

export function paymentChain(
  networks: readonly X402Network[],
  /** `receipts`: those the facilitator's waits found (a settlement's check reads its receipt there first). */
  options: { rpcTimeoutMs: number; confirmationTimeoutMs: number; receipts?: FoundReceipts },
): PaymentChain {
  const clients = new Map<string, { client: PublicClient; receipt: ReceiptWait }>();
  for (const n of networks) {
    if (n.rpcUrl === undefined) continue;
    const chain = viemChainOf(n, n.rpcUrl);
    const client = createPublicClient({
      chain,
      // Provider keys in the URL never reach a log through viem's error messages.
      transport: redactingTransport(keepAliveHttp(n.rpcUrl, { timeout: options.rpcTimeoutMs, retryCount: 0 })),
    });
    const found = options.receipts !== undefined ? { found: options.receipts } : {};
    clients.set(n.network, { client, receipt: receiptWait(client, options.confirmationTimeoutMs, found) });
  }
  const clientOf = (network: string) => clients.get(network)?.client;

  async function authorizationUse(expected: ExpectedTransfer): Promise<AuthorizationUse> {
    const client = clientOf(expected.network);
    if (client === undefined) return { kind: 'unknown', message: `no RPC endpoint for ${expected.network}` };
    const token = getAddress(expected.asset);
    const authorizer = getAddress(expected.payer);
    const nonce = expected.nonce as Hex;
    try {
      const used = await client.readContract({
        address: token,
        abi: AUTHORIZATION_STATE,
        functionName: 'authorizationState',
        args: [authorizer, nonce],
      });
      if (!used) return { kind: 'unused' };
      // the head as it is now (viem would answer one read up to its polling interval old: the log could be newer)
      const head = await client.getBlockNumber({ cacheTime: 0 });
      const range = {
        address: token,
        args: { authorizer, nonce },
        fromBlock: head > LOOKBACK_BLOCKS ? head - LOOKBACK_BLOCKS : 0n,
        toBlock: head,
      };
      const [usedLog] = await client.getLogs({ ...range, event: EVENTS[0] });
      if (usedLog === undefined) {
        const [canceled] = await client.getLogs({ ...range, event: EVENTS[1] });
        return canceled !== undefined
          ? misused('authorization_canceled', `the payer cancelled the authorization (transaction ${canceled.transactionHash})`)
          : misused('authorization_used_elsewhere', 'the authorization was used, and not by a transfer to this service');
      }
      const receipt = await client.getTransactionReceipt({ hash: usedLog.transactionHash! });
      return transferIn(receipt, expected);
    } catch (error) {
      return { kind: 'unknown', message: (error as Error).message };
    }
  }

  async function confirms(expected: ExpectedTransfer, transaction: string): Promise<AuthorizationUse> {
    const waitForReceipt = clients.get(expected.network)?.receipt;
    if (waitForReceipt === undefined) return { kind: 'unknown', message: `no RPC endpoint for ${expected.network}` };
    if (!/^0x[0-9a-fA-F]{64}$/.test(transaction))
      return misused('settlement_unconfirmed', `the settlement named no transaction (${transaction.slice(0, 80)})`);
    try {
      const receipt = await waitForReceipt({ hash: transaction as Hex });
      return transferIn(receipt, expected);
    } catch (error) {
      return { kind: 'unknown', message: (error as Error).message };
    }
  }

  return { reads: (network) => clients.has(network), authorizationUse, confirms };
}

/** An offered network as a viem chain, on its configured RPC endpoint. */
export function viemChainOf(n: X402Network, rpcUrl: string): Chain {
  return defineChain({
    id: n.chainId,
    name: n.name,
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [rpcUrl] } },
  });
}

function misused(reason: string, message: string): AuthorizationUse {
  return { kind: 'misused', reason, message };
}

/**
 * The promised transfer in a receipt: the token's AuthorizationUsed(payer, nonce) log, and right
 * after it (EIP-3009 emits it just before the transfer's own event, as Circle's USDC does) the
 * token's Transfer(payer → payTo, amount). Tying the Transfer to the nonce's own log means one
 * transfer can never count for two payments, nor a transfer made beside a spent nonce.
 */
export function transferIn(receipt: TransactionReceipt, expected: ExpectedTransfer): AuthorizationUse {
  const transaction = receipt.transactionHash;
  if (receipt.status !== 'success') return misused('settlement_reverted', `the settlement transaction ${transaction} reverted`);
  const token = getAddress(expected.asset);
  const logs = receipt.logs;
  const at = logs.findIndex((log) => {
    const event = isAddressEqual(log.address, token) ? decoded(log) : undefined;
    return (
      event?.eventName === 'AuthorizationUsed' &&
      isAddressEqual(event.args.authorizer, expected.payer as Address) &&
      event.args.nonce.toLowerCase() === expected.nonce.toLowerCase()
    );
  });
  if (at === -1) return misused('settlement_unconfirmed', `transaction ${transaction} did not use this payment's authorization`);
  const next = logs[at + 1];
  const transfer = next !== undefined && isAddressEqual(next.address, token) ? decoded(next) : undefined;
  if (
    transfer?.eventName === 'Transfer' &&
    isAddressEqual(transfer.args.from, expected.payer as Address) &&
    isAddressEqual(transfer.args.to, expected.payTo as Address) &&
    transfer.args.value === BigInt(expected.amount)
  ) {
    return { kind: 'paid', transaction };
  }
  const moved = transfer?.eventName === 'Transfer' ? `${transfer.args.value} to ${transfer.args.to}` : 'nothing';
  return misused(
    'authorization_used_elsewhere',
    `transaction ${transaction} used the authorization but moved ${moved}, not ${expected.amount} to ${expected.payTo}`,
  );
}

function decoded(log: Log) {
  try {
    return decodeEventLog({ abi: EVENTS, data: log.data, topics: log.topics });
  } catch {
    return undefined;
  }
}
