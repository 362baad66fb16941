/**
 * The chains the sandbox knows: the one table behind every sandbox answer that names a chain. A
 * chain id not in it is answered with `unsupported_chain`.
 *
 * `blocks` are anchor points (Unix seconds → block number, increasing) from which a block number is
 * interpolated linearly for any time (extrapolated past the last anchor). They approximate each
 * chain's real history closely enough to look plausible; sandbox block numbers are mock data.
 */
export interface SandboxChain {
  readonly id: number;
  readonly name: string;
  /** Genesis (or public launch) of the chain: no sandbox activity happens before it. */
  readonly launchedAt: number;
  readonly blocks: readonly (readonly [timestamp: number, block: number])[];
  /** How likely a generated address is to have used the chain. */
  readonly activeShare: number;
}

export const SANDBOX_CHAINS: readonly SandboxChain[] = [
  {
    id: 1,
    name: 'Ethereum',
    launchedAt: 1_438_269_973,
    blocks: [
      [1_438_269_973, 0],
      [1_663_224_179, 15_537_393], // the merge
      [1_751_241_600, 22_820_000],
    ],
    activeShare: 0.85,
  },
  {
    id: 8453,
    name: 'Base',
    launchedAt: 1_686_789_347,
    blocks: [
      [1_686_789_347, 0],
      [1_751_241_600, 32_226_126],
    ],
    activeShare: 0.45,
  },
  {
    id: 10,
    name: 'OP Mainnet',
    launchedAt: 1_636_665_386,
    blocks: [
      [1_636_665_386, 0],
      [1_686_068_903, 105_235_063], // bedrock
      [1_751_241_600, 137_821_411],
    ],
    activeShare: 0.3,
  },
  {
    id: 42161,
    name: 'Arbitrum One',
    launchedAt: 1_622_240_000,
    blocks: [
      [1_622_240_000, 0],
      [1_661_956_342, 22_207_817], // nitro
      [1_751_241_600, 352_000_000],
    ],
    activeShare: 0.4,
  },
  {
    id: 137,
    name: 'Polygon',
    launchedAt: 1_590_824_836,
    blocks: [
      [1_590_824_836, 0],
      [1_751_241_600, 73_300_000],
    ],
    activeShare: 0.3,
  },
];

const BY_ID = new Map(SANDBOX_CHAINS.map((chain) => [chain.id, chain]));

export function sandboxChain(chainId: number): SandboxChain | undefined {
  return BY_ID.get(chainId);
}

export function isSandboxChain(chainId: number): boolean {
  return BY_ID.has(chainId);
}

/** The chain's block number at a Unix time (integer arithmetic only). */
export function blockAt(chain: SandboxChain, timestamp: number): number {
  const anchors = chain.blocks;
  let i = 0;
  while (i < anchors.length - 2 && timestamp >= (anchors[i + 1] as readonly [number, number])[0]) i++;
  const [t0, b0] = anchors[i] as readonly [number, number];
  const [t1, b1] = anchors[i + 1] as readonly [number, number];
  const block = BigInt(b0) + (BigInt(timestamp - t0) * BigInt(b1 - b0)) / BigInt(t1 - t0);
  return Math.max(0, Number(block));
}
