import type { LocalAccount } from 'viem';
import { ChainScript } from './chain-script';
import type { CeilingWallet } from './outcome-ceiling';
import type { PopulationEntry } from './population-entry';
import type { Rng } from './rng';
import type { SeedActors } from './seed-accounts';
import type { PositionView, Reaction } from './window-policy';

/** A borrower as the window plays it. */
export interface WindowBorrower {
  index: number;
  entry: PopulationEntry;
  who: LocalAccount;
  collateralSymbol: string;
  debtSymbol: string;
  /** Window days on which its loan's interest is posted. */
  interestDays: number[];
  /** Its reactions' draws: `<seed>:population:window:<index>`. */
  rng: Rng;
  /** Has debt at T (else it takes no part in the window). */
  active: boolean;
}

/** The pool's account data and the wallet's two reserves, as read on chain. */
export interface OnChainPosition {
  collateralBase: bigint;
  debtBase: bigint;
  availableBase: bigint;
  thresholdBps: bigint;
  ltvBps: bigint;
  healthFactor: bigint;
  stableBalance: bigint;
  collateralBalance: bigint;
}

/** The pool's account data and the wallets' reserves of many borrowers, in one multicall. */
export async function readPositions(script: ChainScript, borrowers: readonly WindowBorrower[]): Promise<OnChainPosition[]> {
  const calls = borrowers.flatMap((b) => [
    { address: script.pool, abi: ChainScript.poolAbi(), functionName: 'getUserAccountData', args: [b.who.address] },
    { address: script.addr(b.debtSymbol), abi: ChainScript.tokenAbi(), functionName: 'balanceOf', args: [b.who.address] },
    { address: script.addr(b.collateralSymbol), abi: ChainScript.tokenAbi(), functionName: 'balanceOf', args: [b.who.address] },
  ]);
  const results = await script.readMany(calls);
  return borrowers.map((_, k) => {
    const data = results[3 * k] as readonly bigint[];
    return {
      collateralBase: data[0]!,
      debtBase: data[1]!,
      availableBase: data[2]!,
      thresholdBps: data[3]!,
      ltvBps: data[4]!,
      healthFactor: data[5]!,
      stableBalance: results[3 * k + 1] as bigint,
      collateralBalance: results[3 * k + 2] as bigint,
    };
  });
}

const decimalsOf = (script: ChainScript, symbol: string) => script.contracts.tokens[symbol]!.decimals;
const units = (amount: bigint, decimals: number) => Number(amount) / 10 ** decimals;

/** What the policy sees of an on-chain position (USD floats), the collateral priced at `collateralPrice8`. */
export function positionView(script: ChainScript, b: WindowBorrower, p: OnChainPosition, collateralPrice8: bigint): PositionView {
  const reserve = script.contracts.lendingPool!.reserves.find((r) => r.symbol === b.collateralSymbol)!;
  return {
    collateralUsd: Number(p.collateralBase) / 1e8,
    debtUsd: Number(p.debtBase) / 1e8,
    liquidationThreshold: reserve.liquidationThresholdBps / 10_000,
    ltv: reserve.ltvBps / 10_000,
    stableReserveUsd: (units(p.stableBalance, decimalsOf(script, b.debtSymbol)) * Number(script.prices[b.debtSymbol]!)) / 1e8,
    collateralReserveUsd: (units(p.collateralBalance, decimalsOf(script, b.collateralSymbol)) * Number(collateralPrice8)) / 1e8,
  };
}

/** Token units (rounded down) of `usd` at a price of 8 decimals. */
const unitsOfUsd = (usd: number, price8: bigint, decimals: number) =>
  BigInt(Math.max(0, Math.floor(((usd * 1e8) / Number(price8)) * 10 ** decimals)));

/** Sends a borrower's reaction at `at`, within what its wallet and the pool allow; true when it sent something. */
export async function react(
  script: ChainScript,
  b: WindowBorrower,
  p: OnChainPosition,
  reaction: Reaction,
  at: number,
  collateralPrice8: bigint,
  actors: SeedActors,
): Promise<boolean> {
  const who = b.who;
  const reactions = b.entry.outcome.reactions;
  if (reaction.kind === 'repay') {
    const wanted = unitsOfUsd(reaction.usd, script.prices[b.debtSymbol]!, decimalsOf(script, b.debtSymbol));
    const amount = wanted < p.stableBalance ? wanted : p.stableBalance;
    if (amount === 0n) return false;
    await script.poolCallNow(at, who, 'repay', [script.addr(b.debtSymbol), amount, 2n, who.address]);
    reactions.repays += 1;
    return true;
  }
  if (reaction.kind === 'topUp') {
    const wanted = unitsOfUsd(reaction.usd, collateralPrice8, decimalsOf(script, b.collateralSymbol));
    const amount = wanted < p.collateralBalance ? wanted : p.collateralBalance;
    if (amount === 0n) return false;
    await script.poolCallNow(at, who, 'supply', [script.addr(b.collateralSymbol), amount, who.address, 0]);
    reactions.topUps += 1;
    return true;
  }
  if (reaction.kind === 'borrow') {
    const decimals = decimalsOf(script, b.debtSymbol);
    const wanted = unitsOfUsd(reaction.usd, script.prices[b.debtSymbol]!, decimals);
    // within the pool's available borrows (valued rounded up on chain), with a margin
    const allowed = (p.availableBase * 999n * 10n ** BigInt(decimals)) / (1000n * script.prices[b.debtSymbol]!);
    const amount = wanted < allowed ? wanted : allowed;
    if (amount === 0n) return false;
    await script.poolCallNow(at, who, 'borrow', [script.addr(b.debtSymbol), amount, 2n, 0, who.address]);
    await script.transferNow(at, who, b.debtSymbol, actors.lp.address, amount); // spent
    reactions.borrows += 1;
    return true;
  }
  return false;
}

/** A borrower's state at T, hidden traits included, for the outcome ceiling. */
export function ceilingWallet(script: ChainScript, b: WindowBorrower, p: OnChainPosition): CeilingWallet {
  const reserve = script.contracts.lendingPool!.reserves.find((r) => r.symbol === b.collateralSymbol)!;
  const startPrice = Number(script.prices[b.collateralSymbol]!) / 1e8;
  return {
    discipline: b.entry.traits.discipline,
    asset: b.collateralSymbol === 'WETH' ? 'ETH' : 'VOLT',
    startPrice,
    collateral: Number(p.collateralBase) / 1e8 / startPrice,
    collateralReserve: units(p.collateralBalance, decimalsOf(script, b.collateralSymbol)),
    debtUsd: Number(p.debtBase) / 1e8,
    stableReserveUsd: units(p.stableBalance, decimalsOf(script, b.debtSymbol)),
    ltv: reserve.ltvBps / 10_000,
    liquidationThreshold: reserve.liquidationThresholdBps / 10_000,
    liquidationBonus: reserve.liquidationBonusBps / 10_000,
    interestDays: b.interestDays,
  };
}
