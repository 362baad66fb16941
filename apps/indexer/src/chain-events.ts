import { parseAbi, parseAbiItem } from 'viem';

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
