import { maxUint256, type Address } from 'viem';
import { ChainScript } from './chain-script';
import { ceilingProbability, ceilingRng } from './outcome-ceiling';
import { ceilingWallet, positionView, react, readPositions, type WindowBorrower } from './population-positions';
import type { MovingAsset, PricePath } from './price-path';
import type { SeedActors } from './seed-accounts';
import { DAY } from './time';
import { reactionOf } from './window-policy';
import { INTEREST_PERIOD_DAYS, OUTCOME_WINDOW, type WorldParams } from './world-params';

/** Seconds into a window day at which its prices are set (the day's step: prices, interest, reactions, liquidations). */
const DAY_STEP_OFFSET = DAY / 2;

/** When window day d's step runs: T + d days − 12 h (days 1 … 90, all inside the window). */
export const dayStepAt = (featuresAt: number, day: number) => featuresAt + day * DAY - DAY_STEP_OFFSET;

/** The window day whose step posts an interest due at `t` (its first step at or after `t`). */
export const windowDayOf = (featuresAt: number, t: number) => Math.max(1, Math.ceil((t - featuresAt + DAY_STEP_OFFSET) / DAY));

/** Interest on `debt` for `seconds` at `aprPpm` (parts per million a year), rounded down. */
export const interestOn = (debt: bigint, seconds: number, aprPpm: bigint) =>
  (debt * aprPpm * BigInt(seconds)) / (1_000_000n * BigInt(365 * DAY));

/** What every chain's window is played against: the timeline's moments, the realised prices and the ceiling's paths. */
export interface WindowPlan {
  seed: string;
  params: WorldParams;
  featuresAt: number;
  windowEnd: number;
  /** When the feeds go back to their start prices. */
  restoredAt: number;
  aprPpm: bigint;
  /** The realised price (8 decimals) of an asset on window day `day` (1 … 90). */
  price8: (asset: MovingAsset, day: number) => bigint;
  /** The outcome ceiling's simulated paths (drawn once, when first needed). */
  paths: () => PricePath[];
  actors: SeedActors;
}

/**
 * Plays one chain's window: at T every borrower's state, health factor and outcome ceiling; then
 * day by day the prices and interest postings, the borrowers' reactions and the liquidations; after
 * it the outcomes, counted from the pool's LiquidationCall logs; then the start prices restored.
 */
export function scheduleWindow(script: ChainScript, borrowers: readonly WindowBorrower[], plan: WindowPlan): void {
  const { seed, params, featuresAt, windowEnd, restoredAt, aprPpm, price8, paths, actors } = plan;
  const active = () => borrowers.filter((b) => b.active);
  let blockAtT = 0n;

  // T: every borrower's state, its health factor and its outcome ceiling.
  script.timeline.at(featuresAt, async () => {
    await script.writer.verify();
    blockAtT = await script.writer.client.getBlockNumber();
    const positions = await readPositions(script, borrowers);
    for (const [k, b] of borrowers.entries()) {
      const p = positions[k]!;
      const hasDebt = p.debtBase > 0n && p.healthFactor !== maxUint256;
      b.active = b.active && hasDebt;
      b.entry.outcome.healthFactorAtT = hasDebt ? p.healthFactor.toString() : null;
      if (!b.active) continue;
      const wallet = ceilingWallet(script, b, p);
      b.entry.outcome.ceilingWallet = wallet;
      b.entry.outcome.ceilingProbability = ceilingProbability(wallet, paths(), params, ceilingRng(seed, b.index), OUTCOME_WINDOW.days);
    }
  });

  // The window, day by day: the day's prices and interest postings (one block), the borrowers'
  // reactions (one block), the liquidations (one block).
  for (let day = 1; day <= OUTCOME_WINDOW.days; day++) {
    const at = dayStepAt(featuresAt, day);
    script.timeline.at(at, async () => {
      const list = active();
      const due = list.filter((b) => b.interestDays.includes(day));
      const debts = (await script.readMany(
        due.map((b) => ({
          address: script.pool,
          abi: ChainScript.poolAbi(),
          functionName: 'borrowed',
          args: [b.who.address, script.addr(b.debtSymbol)],
        })),
      )) as bigint[];
      await script.writer.block(at, async () => {
        await script.setPriceNow(at, 'ETH / USD', price8('ETH', day));
        await script.setPriceNow(at, 'VOLT / USD', price8('VOLT', day));
        for (const [k, b] of due.entries()) {
          const interest = interestOn(debts[k]!, INTEREST_PERIOD_DAYS * DAY, aprPpm);
          if (interest > 0n) await script.chargeInterestNow(at, b.who.address, b.debtSymbol, interest);
        }
      });
      const positions = await readPositions(script, list);
      const reacted: number[] = [];
      await script.writer.block(at, async () => {
        for (const [k, b] of list.entries()) {
          const p = positions[k]!;
          const collateralPrice8 = price8(b.collateralSymbol === 'WETH' ? 'ETH' : 'VOLT', day);
          const view = positionView(script, b, p, collateralPrice8);
          const hf = p.healthFactor === maxUint256 ? Infinity : Number(p.healthFactor) / 1e18;
          const reaction = reactionOf(b.entry.traits.discipline, hf, b.rng, view);
          if (await react(script, b, p, reaction, at, collateralPrice8, actors)) reacted.push(k);
        }
      });
      if (reacted.length > 0) {
        const again = await readPositions(
          script,
          reacted.map((k) => list[k]!),
        );
        reacted.forEach((k, j) => (positions[k] = again[j]!));
      }
      // the liquidator: every population borrower below a health factor of 1 (with collateral left)
      await script.writer.block(at, async () => {
        for (const [k, b] of list.entries()) {
          const p = positions[k]!;
          if (p.healthFactor >= 10n ** 18n || p.collateralBase === 0n || p.debtBase === 0n) continue;
          await script.poolCallNow(at, actors.liquidator, 'liquidationCall', [
            script.addr(b.collateralSymbol),
            script.addr(b.debtSymbol),
            b.who.address,
            maxUint256,
            false,
          ]);
        }
      });
    });
  }

  // After the window: the outcomes, from the pool's LiquidationCall logs in (T, T + 90 d].
  script.timeline.at(windowEnd + 3600, async () => {
    await script.writer.verify();
    const byAddress = new Map(borrowers.map((b) => [b.who.address.toLowerCase(), b.entry]));
    const logs = await script.writer.client.getContractEvents({
      address: script.pool,
      abi: ChainScript.poolAbi(),
      eventName: 'LiquidationCall',
      fromBlock: blockAtT + 1n,
      toBlock: 'latest',
    });
    const times = new Map<bigint, number>();
    for (const log of logs) {
      const entry = byAddress.get(String((log.args as { user: Address }).user).toLowerCase());
      if (!entry) continue;
      if (!times.has(log.blockNumber!))
        times.set(log.blockNumber!, Number((await script.writer.client.getBlock({ blockNumber: log.blockNumber! })).timestamp));
      const time = times.get(log.blockNumber!)!;
      if (time <= featuresAt || time > windowEnd) continue;
      entry.outcome.liquidations += 1;
      entry.outcome.liquidated = true;
      entry.outcome.firstLiquidatedAt = Math.min(entry.outcome.firstLiquidatedAt ?? time, time);
    }
  });

  script.setPrice(restoredAt, 'ETH / USD', script.prices.WETH!);
  script.setPrice(restoredAt + 60, 'VOLT / USD', script.prices.VOLT!);
}
