import { parseAbi } from 'viem';

/**
 * The parts of Multicall3 the readers use (https://github.com/mds1/multicall). `aggregate3` is
 * payable on chain; it is declared `view` here because the readers only ever eth_call it.
 */
export const multicall3Abi = parseAbi([
  'struct Call3 { address target; bool allowFailure; bytes callData; }',
  'struct Result { bool success; bytes returnData; }',
  'function aggregate3(Call3[] calls) view returns (Result[] returnData)',
  'function getEthBalance(address addr) view returns (uint256 balance)',
  'function getBlockNumber() view returns (uint256 blockNumber)',
  'function getCurrentBlockTimestamp() view returns (uint256 timestamp)',
  'function getLastBlockHash() view returns (bytes32 blockHash)',
]);

export const erc20BalanceAbi = parseAbi(['function balanceOf(address owner) view returns (uint256)']);

/** Chainlink's AggregatorV3Interface, the parts read. */
export const aggregatorV3Abi = parseAbi([
  'function decimals() view returns (uint8)',
  'function latestRoundData() view returns (uint80 roundId, int256 answer, uint256 startedAt, uint256 updatedAt, uint80 answeredInRound)',
]);

/** Aave V3 Pool's account summary. */
export const aaveV3PoolAbi = parseAbi([
  'function getUserAccountData(address user) view returns (uint256 totalCollateralBase, uint256 totalDebtBase, uint256 availableBorrowsBase, uint256 currentLiquidationThreshold, uint256 ltv, uint256 healthFactor)',
]);

/**
 * The devnet pool's reserve configuration (`LendingPool.reserves(asset)`; Aave V3 packs the same
 * parameters in `getConfiguration`'s bitmap): what a past position is valued with (score history).
 */
export const devnetPoolReservesAbi = parseAbi([
  'function reserves(address asset) view returns (bool active, uint8 decimals, address priceFeed, uint16 ltv, uint16 liquidationThreshold, uint16 liquidationBonus, uint256 variableBorrowRate, uint256 totalSupplied, uint256 totalBorrowed)',
]);
