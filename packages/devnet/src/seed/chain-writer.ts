import {
  createPublicClient,
  encodeFunctionData,
  parseGwei,
  type Abi,
  type Address,
  type Chain,
  type Hash,
  type Hex,
  type LocalAccount,
  type PublicClient,
  type Transport,
} from 'viem';
import { keepAliveHttp } from '@credit/http-client/keep-alive-http';
import { rpc, rpcBatch } from '../json-rpc';

export interface WriteCall {
  to: Address;
  abi: Abi;
  functionName: string;
  args?: readonly unknown[];
  value?: bigint;
  gas?: bigint;
}

/** A transaction of `ChainWriter.bulk`: sent unsigned from an impersonated address, with its nonce given. */
export interface BulkTransaction {
  from: Address;
  to: Address;
  nonce: number;
  data?: Hex;
  value?: bigint;
  gas: bigint;
}

/** The gas limits of the transactions of one block written by `ChainWriter.block` add up to at most this (anvil's blocks hold 30 M). */
export const BLOCK_GAS_BUDGET = 24_000_000n;

/**
 * Writes history onto an anvil chain with explicit block timestamps: every transaction is mined
 * in its own block at the given second (automine off, `evm_mine` with the timestamp), so the same script gives the same blocks.
 * `block` mines several transactions together, in the order sent (all pay the same priority fee,
 * and anvil's pool keeps arrival order among equals).
 * Transactions are signed locally with tracked nonces; receipts are checked in bulk by `verify`.
 */
export class ChainWriter {
  readonly client: PublicClient<Transport, Chain>;
  private readonly nonces = new Map<Address, number>();
  private pending: { hash: Hash; what: string }[] = [];
  private lastTimestamp = 0;
  /** True while anvil sends any address's transactions unsigned (`bulk`); turned off by `finish`. */
  private impersonating = false;
  /** The block being filled by `block`: its timestamp and the gas limits sent into it. */
  private filling: { at: number; gas: bigint; count: number } | undefined;
  transactions = 0;

  constructor(
    readonly rpcUrl: string,
    readonly chain: Chain,
  ) {
    this.client = createPublicClient({
      chain,
      transport: keepAliveHttp(rpcUrl, { retryCount: 0, timeout: 60_000 }),
      pollingInterval: 50,
    }) as PublicClient<Transport, Chain>;
  }

  /** Turns automine off: each transaction is then mined explicitly, at its timestamp, by `send`. */
  async init(): Promise<void> {
    const block = await this.client.getBlock();
    this.lastTimestamp = Number(block.timestamp);
    await rpc(this.rpcUrl, 'evm_setAutomine', [false]);
  }

  /** Turns automine back on. */
  async finish(): Promise<void> {
    await this.verify();
    if (this.impersonating) await rpc(this.rpcUrl, 'anvil_autoImpersonateAccount', [false]);
    this.impersonating = false;
    await rpc(this.rpcUrl, 'evm_setAutomine', [true]);
  }

  /** The timestamp of the last block written (or of the chain head at init). */
  get timestamp(): number {
    return this.lastTimestamp;
  }

  private async nonce(address: Address): Promise<number> {
    let n = this.nonces.get(address);
    if (n === undefined) n = await this.client.getTransactionCount({ address, blockTag: 'pending' });
    this.nonces.set(address, n + 1);
    return n;
  }

  /**
   * Runs `fill`, whose transactions (`send`, `write`) are then mined together in one block at
   * `timestamp` (moved past the last block if not later), in the order sent; when their gas limits
   * exceed `BLOCK_GAS_BUDGET`, in consecutive blocks a second apart. Reads inside `fill` see the
   * state before the block. The writer's `timestamp` is the last such block's afterwards.
   */
  async block(timestamp: number, fill: () => Promise<unknown>): Promise<void> {
    if (this.filling) throw new Error('ChainWriter.block: already filling a block');
    this.filling = { at: Math.max(timestamp, this.lastTimestamp + 1), gas: 0n, count: 0 };
    try {
      await fill();
    } finally {
      const filled = this.filling;
      this.filling = undefined;
      if (filled.count > 0) await this.mine(filled.at);
    }
  }

  private async mine(at: number): Promise<void> {
    await rpc(this.rpcUrl, 'evm_mine', [at]);
    this.lastTimestamp = at;
  }

  /** Sends one transaction mined at `timestamp` (moved to one second after the last block if not later), or into the block being filled. */
  async send(
    account: LocalAccount,
    timestamp: number,
    call: { to: Address; data?: Hex; value?: bigint; gas?: bigint },
    what = 'tx',
  ): Promise<Hash> {
    const gas = call.gas ?? 500_000n;
    if (this.filling && this.filling.count > 0 && this.filling.gas + gas > BLOCK_GAS_BUDGET) {
      await this.mine(this.filling.at);
      this.filling = { at: this.lastTimestamp + 1, gas: 0n, count: 0 };
    }
    const at = Math.max(timestamp, this.lastTimestamp + 1);
    const serialized = await account.signTransaction({
      chainId: this.chain.id,
      type: 'eip1559',
      to: call.to,
      data: call.data ?? '0x',
      value: call.value ?? 0n,
      gas,
      nonce: await this.nonce(account.address),
      maxFeePerGas: parseGwei('5'),
      maxPriorityFeePerGas: 1n,
    });
    const hash = await rpc<Hash>(this.rpcUrl, 'eth_sendRawTransaction', [serialized]);
    if (this.filling) {
      this.filling.gas += gas;
      this.filling.count += 1;
    } else {
      await this.mine(at);
    }
    this.pending.push({ hash, what });
    this.transactions += 1;
    return hash;
  }

  /**
   * Mines `txs` in one block at `timestamp` (moved past the last block if not later), each sender's
   * in the order given (anvil takes a batch's requests concurrently: across senders the order is
   * anvil's, so no transaction may depend on another sender's in the same block), sent unsigned
   * (anvil impersonates every sender: no key is needed, and no time is spent signing) in one
   * JSON-RPC batch; then checks from the block's receipts that every one was mined and succeeded.
   * For the scale world's bulk wallets: their gas limits must fit one block.
   */
  async bulk(timestamp: number, txs: readonly BulkTransaction[]): Promise<void> {
    if (this.filling) throw new Error('ChainWriter.bulk: inside a block being filled');
    if (txs.length === 0) return;
    if (!this.impersonating) await rpc(this.rpcUrl, 'anvil_autoImpersonateAccount', [true]);
    this.impersonating = true;
    const hex = (n: bigint | number) => `0x${n.toString(16)}`;
    const batch = txs.map((tx, id) => ({
      jsonrpc: '2.0',
      id,
      method: 'eth_sendTransaction',
      params: [
        {
          from: tx.from,
          to: tx.to,
          nonce: hex(tx.nonce),
          gas: hex(tx.gas),
          value: hex(tx.value ?? 0n),
          data: tx.data ?? '0x',
          maxFeePerGas: hex(parseGwei('5')),
          maxPriorityFeePerGas: '0x1',
        },
      ],
    }));
    const sent = (await rpcBatch(this.rpcUrl, batch)) as { error?: { message: string } }[];
    const failed = sent.find((r) => r.error);
    if (failed) throw new Error(`bulk transaction on chain ${this.chain.id}: ${failed.error!.message}`);
    await this.mine(Math.max(timestamp, this.lastTimestamp + 1));
    const receipts = await rpc<{ status: Hex; from: Address; to: Address | null; transactionHash: Hash }[]>(
      this.rpcUrl,
      'eth_getBlockReceipts',
      ['latest'],
    );
    const bad = receipts.find((r) => r.status !== '0x1');
    if (receipts.length !== txs.length || bad)
      throw new Error(
        `bulk block on chain ${this.chain.id}: ${txs.length} sent, ${receipts.length} mined${bad ? `; ${bad.transactionHash} from ${bad.from} to ${bad.to} reverted` : ''}`,
      );
    this.transactions += txs.length;
  }

  write(account: LocalAccount, timestamp: number, call: WriteCall): Promise<Hash> {
    const data = encodeFunctionData({ abi: call.abi, functionName: call.functionName, args: call.args ?? [] } as never);
    return this.send(account, timestamp, { to: call.to, data, value: call.value, gas: call.gas }, call.functionName);
  }

  /** Checks that every transaction sent so far succeeded. */
  async verify(): Promise<void> {
    const pending = this.pending;
    this.pending = [];
    for (let i = 0; i < pending.length; i += 200) {
      const slice = pending.slice(i, i + 200);
      const receipts = (await rpcBatch(
        this.rpcUrl,
        slice.map((p, j) => ({ jsonrpc: '2.0', id: j, method: 'eth_getTransactionReceipt', params: [p.hash] })),
      )) as unknown as { id: number; result: { status: Hex } | null }[];
      for (const r of receipts) {
        if (r.result?.status !== '0x1') {
          const p = slice[r.id]!;
          throw new Error(`seeding transaction ${p.what} ${p.hash} on chain ${this.chain.id} ${r.result ? 'reverted' : 'was not mined'}`);
        }
      }
    }
  }

  setBalance(address: Address, wei: bigint): Promise<unknown> {
    return rpc(this.rpcUrl, 'anvil_setBalance', [address, `0x${wei.toString(16)}`]);
  }
}
