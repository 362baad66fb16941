import {
  createPublicClient,
  encodeFunctionData,
  http,
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
import { rpc } from '../json-rpc';

export interface WriteCall {
  to: Address;
  abi: Abi;
  functionName: string;
  args?: readonly unknown[];
  value?: bigint;
  gas?: bigint;
}

/**
 * Writes history onto an anvil chain with explicit block timestamps: every transaction is mined
 * in its own block at the given second (automine off, `evm_mine` with the timestamp), so the same script gives the same blocks.
 * Transactions are signed locally with tracked nonces; receipts are checked in bulk by `verify`.
 */
export class ChainWriter {
  readonly client: PublicClient<Transport, Chain>;
  private readonly nonces = new Map<Address, number>();
  private pending: { hash: Hash; what: string }[] = [];
  private lastTimestamp = 0;
  transactions = 0;

  constructor(
    readonly rpcUrl: string,
    readonly chain: Chain,
  ) {
    this.client = createPublicClient({ chain, transport: http(rpcUrl, { retryCount: 0 }), pollingInterval: 50 }) as PublicClient<
      Transport,
      Chain
    >;
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

  /** Sends one transaction mined at `timestamp` (moved to one second after the last block if not later). */
  async send(
    account: LocalAccount,
    timestamp: number,
    call: { to: Address; data?: Hex; value?: bigint; gas?: bigint },
    what = 'tx',
  ): Promise<Hash> {
    const at = Math.max(timestamp, this.lastTimestamp + 1);
    const serialized = await account.signTransaction({
      chainId: this.chain.id,
      type: 'eip1559',
      to: call.to,
      data: call.data ?? '0x',
      value: call.value ?? 0n,
      gas: call.gas ?? 500_000n,
      nonce: await this.nonce(account.address),
      maxFeePerGas: parseGwei('5'),
      maxPriorityFeePerGas: 1n,
    });
    const hash = await rpc<Hash>(this.rpcUrl, 'eth_sendRawTransaction', [serialized]);
    await rpc(this.rpcUrl, 'evm_mine', [at]);
    this.lastTimestamp = at;
    this.pending.push({ hash, what });
    this.transactions += 1;
    return hash;
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
      const response = await fetch(this.rpcUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(slice.map((p, j) => ({ jsonrpc: '2.0', id: j, method: 'eth_getTransactionReceipt', params: [p.hash] }))),
      });
      const receipts = (await response.json()) as { id: number; result: { status: Hex } | null }[];
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
