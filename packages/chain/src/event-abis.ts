import { parseAbi, parseAbiItem } from 'viem';

/** ERC-20 Transfer (three topics; ERC-721's has four and does not decode against this). */
export const erc20TransferEvent = parseAbiItem('event Transfer(address indexed from, address indexed to, uint256 value)');

/** Aave V3 Pool events the indexer records, with Aave's exact signatures. */
export const aaveV3PoolEvents = parseAbi([
  'event Supply(address indexed reserve, address user, address indexed onBehalfOf, uint256 amount, uint16 indexed referralCode)',
  'event Withdraw(address indexed reserve, address indexed user, address indexed to, uint256 amount)',
  'event Borrow(address indexed reserve, address user, address indexed onBehalfOf, uint256 amount, uint8 interestRateMode, uint256 borrowRate, uint16 indexed referralCode)',
  'event Repay(address indexed reserve, address indexed user, address indexed repayer, uint256 amount, bool useATokens)',
  'event LiquidationCall(address indexed collateralAsset, address indexed debtAsset, address indexed user, uint256 debtToCover, uint256 liquidatedCollateralAmount, address liquidator, bool receiveAToken)',
]);
