/** NFT collections the sandbox hands out, per chain. ENS names owned by a profile come on top. */
export const SANDBOX_NFT_COLLECTIONS: Readonly<Record<number, readonly string[]>> = {
  1: ['Pudgy Penguins', 'Art Blocks', 'Nouns', 'Azuki'],
  8453: ['Base Day One', 'Onchain Summer'],
  10: ['Optimism Quests', 'Optimistic Explorer'],
  42161: ['Arbitrum Odyssey', 'Smol Brains'],
  137: ['Reddit Collectible Avatars', 'Sunflower Land'],
};

/** The collection ENS `.eth` names belong to; the sandbox lists a profile's owned names under it. */
export const ENS_COLLECTION = 'ENS: Ethereum Name Service';
