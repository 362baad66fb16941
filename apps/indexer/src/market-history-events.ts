import { parseAbiItem, type Address } from 'viem';
import type { PoolEventArgs, PoolEventName } from './chain-events';

/** A Chainlink AggregatorV3 round's answer (the devnet's MockAggregatorV3 emits it on every update). */
export const answerUpdatedEvent = parseAbiItem('event AnswerUpdated(int256 indexed current, uint256 indexed roundId, uint256 updatedAt)');

/**
 * The devnet pool's posting of interest onto a debt (`chargeInterest`; Aave accrues continuously,
 * with no event): read with the pool's other events, kept as a lending move only.
 */
export const interestChargedEvent = parseAbiItem('event InterestCharged(address indexed reserve, address indexed user, uint256 amount)');

/** One change of an account's supplied and borrowed units of one reserve (signed). */
export interface MoveFields {
  account: Address;
  asset: Address;
  supplied: bigint;
  borrowed: bigint;
}

/**
 * What a pool event changes in positions: a supply or a withdrawal the supplied amount, a borrow or
 * a repayment the debt, a liquidation both (the debt covered of the debt asset, the collateral
 * seized of the collateral asset; one move when they are the same reserve).
 */
const LENDING_MOVES: { readonly [N in PoolEventName]: (args: PoolEventArgs<N>) => MoveFields[] } = {
  Supply: (a) => [{ account: a.onBehalfOf, asset: a.reserve, supplied: a.amount, borrowed: 0n }],
  Withdraw: (a) => [{ account: a.user, asset: a.reserve, supplied: -a.amount, borrowed: 0n }],
  Borrow: (a) => [{ account: a.onBehalfOf, asset: a.reserve, supplied: 0n, borrowed: a.amount }],
  Repay: (a) => [{ account: a.user, asset: a.reserve, supplied: 0n, borrowed: -a.amount }],
  LiquidationCall: (a) =>
    a.collateralAsset.toLowerCase() === a.debtAsset.toLowerCase()
      ? [{ account: a.user, asset: a.debtAsset, supplied: -a.liquidatedCollateralAmount, borrowed: -a.debtToCover }]
      : [
          { account: a.user, asset: a.debtAsset, supplied: 0n, borrowed: -a.debtToCover },
          { account: a.user, asset: a.collateralAsset, supplied: -a.liquidatedCollateralAmount, borrowed: 0n },
        ],
};

/** A pool event's lending moves, by its name. */
export function lendingMovesOf<N extends PoolEventName>(log: { eventName: N; args: PoolEventArgs<N> }): MoveFields[] {
  return LENDING_MOVES[log.eventName](log.args);
}

/** Interest posted onto a debt (the devnet pool's `InterestCharged`). */
export function interestMove(args: { reserve: Address; user: Address; amount: bigint }): MoveFields {
  return { account: args.user, asset: args.reserve, supplied: 0n, borrowed: args.amount };
}
