import type { Abi } from 'viem';
import { artifact } from './compile';

/** ABIs of the devnet contracts, from the compiled artifact. */
export const devnetAbi = (
  contractName: 'DevToken' | 'Usdc3009' | 'MockAggregatorV3' | 'LendingPool' | 'Multicall3' | 'DevEthRegistrarController',
): Abi => artifact(contractName).abi;
