import { SANDBOX_CHAINS, blockAt, isSandboxChain, sandboxChain } from '../../src/generator/chains';
import { SANDBOX_TOKENS } from '../../src/generator/tokens';
import { SANDBOX_NFT_COLLECTIONS } from '../../src/generator/nfts';

describe('sandbox chain table', () => {
  it('holds the five chains of the sandbox', () => {
    expect(SANDBOX_CHAINS.map((c) => [c.id, c.name])).toEqual([
      [1, 'Ethereum'],
      [8453, 'Base'],
      [10, 'OP Mainnet'],
      [42161, 'Arbitrum One'],
      [137, 'Polygon'],
    ]);
    expect(isSandboxChain(8453)).toBe(true);
    expect(isSandboxChain(56)).toBe(false);
    expect(sandboxChain(56)).toBeUndefined();
  });

  it('has tokens (gas token first) and NFT collections for every chain', () => {
    for (const chain of SANDBOX_CHAINS) {
      expect(SANDBOX_TOKENS[chain.id]!.length).toBeGreaterThan(0);
      expect(SANDBOX_NFT_COLLECTIONS[chain.id]!.length).toBeGreaterThan(0);
    }
  });

  it('interpolates block numbers through the anchors, increasing with time', () => {
    for (const chain of SANDBOX_CHAINS) {
      for (const [t, b] of chain.blocks) expect(blockAt(chain, t)).toBe(b);
      let previous = -1;
      for (let t = chain.launchedAt; t <= 1_767_225_600; t += 86_400 * 7) {
        const block = blockAt(chain, t);
        expect(block).toBeGreaterThan(previous);
        previous = block;
      }
    }
    expect(blockAt(sandboxChain(1)!, 1_000_000_000)).toBe(0);
  });
});
