import { parseAbi, parseAbiItem, type Address, type Log } from 'viem';
import type { ChainEventKind } from '@credit/db/chain-activity-repository';
import { aaveV3PoolEvents } from '@credit/chain/event-abis';

/** The token and pool events live with the chain readers (a wallet reading reads the blocks the index has not reached). */
export { aaveV3PoolEvents, erc20TransferEvent } from '@credit/chain/event-abis';

/** The ENS registry's ownership events, with the registry's exact signatures. */
export const ensRegistryEvents = parseAbi([
  'event NewOwner(bytes32 indexed node, bytes32 indexed label, address owner)',
  'event Transfer(bytes32 indexed node, address owner)',
]);

/** The .eth registrar controller's registration: the one event that carries a name's label (ETHRegistrarController). */
export const ensNameRegisteredEvent = parseAbiItem(
  'event NameRegistered(string name, bytes32 indexed label, address indexed owner, uint256 baseCost, uint256 premium, uint256 expires)',
);

/** A lending pool's event as `getLogs` decodes it strictly (every argument present). */
export type PoolLog = Log<bigint, number, false, undefined, true, typeof aaveV3PoolEvents>;
export type PoolEventName = PoolLog['eventName'];
export type PoolEventArgs<N extends PoolEventName> = Extract<PoolLog, { eventName: N }>['args'];

/** What a `chain_logs` row takes from a lending event (`IndexedLog`'s party, counterparty, asset and amount). */
export interface LendingEventFields {
  kind: Exclude<ChainEventKind, 'transfer'>;
  /** The account the event is about: the one supplied or borrowed for, withdrawing, repaid for, liquidated. */
  party: Address;
  /** Who acted: the supplier's or borrower's caller, the withdrawal's recipient, the repayer, the liquidator. */
  actor: Address;
  /** The reserve (a liquidation: the debt asset). */
  asset: Address;
  /** Base units of the asset (a liquidation: the debt covered). */
  amount: bigint;
}

/** Which of each pool event's arguments are its party, actor, asset and amount. */
const LENDING_EVENT_FIELDS: { readonly [N in PoolEventName]: (args: PoolEventArgs<N>) => LendingEventFields } = {
  Supply: (a) => ({ kind: 'supply', party: a.onBehalfOf, actor: a.user, asset: a.reserve, amount: a.amount }),
  Withdraw: (a) => ({ kind: 'withdraw', party: a.user, actor: a.to, asset: a.reserve, amount: a.amount }),
  Borrow: (a) => ({ kind: 'borrow', party: a.onBehalfOf, actor: a.user, asset: a.reserve, amount: a.amount }),
  Repay: (a) => ({ kind: 'repay', party: a.user, actor: a.repayer, asset: a.reserve, amount: a.amount }),
  LiquidationCall: (a) => ({ kind: 'liquidation', party: a.user, actor: a.liquidator, asset: a.debtAsset, amount: a.debtToCover }),
};

/** A pool event's fields, by its name (the name and the arguments stay paired through `N`). */
export function lendingEventFields<N extends PoolEventName>(log: { eventName: N; args: PoolEventArgs<N> }): LendingEventFields {
  return LENDING_EVENT_FIELDS[log.eventName](log.args);
}
