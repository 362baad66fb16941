import { maxUint256, parseEther, parseUnits, type Abi, type Address, type Hash, type LocalAccount } from 'viem';
import { devnetAbi } from '../abis';
import type { ChainContracts } from '../deploy';
import type { DevnetChainHandle } from '../devnet';
import { ChainWriter } from './chain-writer';
import { Timeline } from './timeline';

/** An ABI read once per seeding process (`devnetAbi` reads and hashes the sources at every call). */
const once = (name: Parameters<typeof devnetAbi>[0]) => {
  let abi: Abi | undefined;
  return () => (abi ??= devnetAbi(name));
};
const token = once('DevToken');
const pool = once('LendingPool');
const feed = once('MockAggregatorV3');

/**
 * One scoring chain's seeding script: schedules timestamped actions on its timeline (played in
 * time order later) with the token, pool and feed calls the world is made of.
 */
export class ChainScript {
  readonly timeline = new Timeline();
  /** USD prices (8 decimals) at the start of seeding, by token symbol. */
  readonly prices: Record<string, bigint> = {};

  private constructor(
    readonly id: number,
    readonly writer: ChainWriter,
    readonly contracts: ChainContracts,
    /** Owner of the tokens, feeds and ENS; the faucet. */
    readonly deployer: LocalAccount,
  ) {}

  static async create(handle: DevnetChainHandle, contracts: ChainContracts, deployer: LocalAccount): Promise<ChainScript> {
    if (!contracts.lendingPool) throw new Error(`scoring chain ${handle.spec.id} has no lending pool`);
    const writer = new ChainWriter(handle.rpcUrl, handle.chain);
    await writer.init();
    const script = new ChainScript(handle.spec.id, writer, contracts, deployer);
    for (const [symbol, t] of Object.entries(contracts.tokens)) {
      const [, answer] = (await writer.client.readContract({
        address: t.priceFeed,
        abi: feed(),
        functionName: 'latestRoundData',
      })) as readonly [bigint, bigint];
      script.prices[symbol] = answer;
    }
    return script;
  }

  get pool(): Address {
    return this.contracts.lendingPool!.address;
  }

  addr(symbol: string): Address {
    return this.contracts.tokens[symbol]!.address;
  }

  unit(symbol: string, amount: string): bigint {
    return parseUnits(amount, this.contracts.tokens[symbol]!.decimals);
  }

  /** Schedules a contract call by `who` at `t`. */
  call(t: number, who: LocalAccount, to: Address, abi: Abi, functionName: string, args: readonly unknown[], gas = 600_000n): void {
    this.timeline.at(t, () => this.writer.write(who, t, { to, abi, functionName, args, gas }));
  }

  /** A contract call by `who` mined at `t` now (inside a timeline step). */
  callNow(
    t: number,
    who: LocalAccount,
    to: Address,
    abi: Abi,
    functionName: string,
    args: readonly unknown[],
    gas = 600_000n,
  ): Promise<Hash> {
    return this.writer.write(who, t, { to, abi, functionName, args, gas });
  }

  /** Schedules `fill` at `t`; the transactions it sends (the `…Now` calls) are mined together in one block (`ChainWriter.block`). */
  block(t: number, fill: () => Promise<unknown>): void {
    this.timeline.at(t, () => this.writer.block(t, fill));
  }

  mintNow(t: number, symbol: string, to: Address, amount: bigint): Promise<Hash> {
    return this.callNow(t, this.deployer, this.addr(symbol), token(), 'mint', [to, amount], 120_000n);
  }

  approvePoolNow(t: number, who: LocalAccount, symbol: string): Promise<Hash> {
    return this.callNow(t, who, this.addr(symbol), token(), 'approve', [this.pool, maxUint256], 80_000n);
  }

  transferNow(t: number, who: LocalAccount, symbol: string, to: Address, amount: bigint): Promise<Hash> {
    return this.callNow(t, who, this.addr(symbol), token(), 'transfer', [to, amount], 80_000n);
  }

  poolCallNow(t: number, who: LocalAccount, functionName: string, args: readonly unknown[]): Promise<Hash> {
    return this.callNow(t, who, this.pool, pool(), functionName, args);
  }

  chargeInterestNow(t: number, user: Address, symbol: string, amount: bigint): Promise<Hash> {
    return this.callNow(t, this.deployer, this.pool, pool(), 'chargeInterest', [user, this.addr(symbol), amount], 120_000n);
  }

  fund(t: number, to: Address, eth: string): void {
    this.timeline.at(t, () => this.writer.send(this.deployer, t, { to, value: parseEther(eth), gas: 21_000n }, 'fund'));
  }

  mint(t: number, symbol: string, to: Address, amount: bigint): void {
    this.call(t, this.deployer, this.addr(symbol), token(), 'mint', [to, amount], 120_000n);
  }

  approvePool(t: number, who: LocalAccount, symbol: string): void {
    this.call(t, who, this.addr(symbol), token(), 'approve', [this.pool, maxUint256], 80_000n);
  }

  transfer(t: number, who: LocalAccount, symbol: string, to: Address, amount: bigint): void {
    this.call(t, who, this.addr(symbol), token(), 'transfer', [to, amount], 80_000n);
  }

  poolCall(t: number, who: LocalAccount, functionName: string, args: readonly unknown[]): void {
    this.call(t, who, this.pool, pool(), functionName, args);
  }

  supply(t: number, who: LocalAccount, symbol: string, amount: bigint): void {
    this.poolCall(t, who, 'supply', [this.addr(symbol), amount, who.address, 0]);
  }

  borrow(t: number, who: LocalAccount, symbol: string, amount: bigint): void {
    this.poolCall(t, who, 'borrow', [this.addr(symbol), amount, 2n, 0, who.address]);
  }

  repay(t: number, who: LocalAccount, symbol: string, amount: bigint): void {
    this.poolCall(t, who, 'repay', [this.addr(symbol), amount, 2n, who.address]);
  }

  setPrice(t: number, feedDescription: string, answer: bigint): void {
    this.call(t, this.deployer, this.contracts.priceFeeds[feedDescription]!, feed(), 'setAnswer', [answer], 150_000n);
  }

  /** A feed's new answer mined at `t` now (inside a timeline step). */
  setPriceNow(t: number, feedDescription: string, answer: bigint): Promise<Hash> {
    return this.callNow(t, this.deployer, this.contracts.priceFeeds[feedDescription]!, feed(), 'setAnswer', [answer], 150_000n);
  }

  /** The owner posts `amount` of interest on `user`'s debt in `symbol` at `t` (`LendingPool.chargeInterest`). */
  chargeInterest(t: number, user: Address, symbol: string, amount: bigint): void {
    this.timeline.at(t, () => this.chargeInterestNow(t, user, symbol, amount));
  }

  static tokenAbi(): Abi {
    return token();
  }

  /** Many reads in one multicall (split in large chunks), read now; the results in order. */
  async readMany(calls: readonly { address: Address; abi: Abi; functionName: string; args: readonly unknown[] }[]): Promise<unknown[]> {
    if (calls.length === 0) return [];
    return (await this.writer.client.multicall({
      contracts: calls,
      allowFailure: false,
      batchSize: 16_384,
    } as never)) as unknown as unknown[];
  }

  /** Health factors (1e18) of many users in one multicall, read now. */
  async healthFactors(users: readonly Address[]): Promise<bigint[]> {
    const data = (await this.writer.client.multicall({
      contracts: users.map((u) => ({ address: this.pool, abi: pool(), functionName: 'getUserAccountData', args: [u] })),
      allowFailure: false,
    } as never)) as unknown as (readonly bigint[])[];
    return data.map((d) => d[5]!);
  }

  static poolAbi(): Abi {
    return pool();
  }
}
