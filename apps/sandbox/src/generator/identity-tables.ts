/** Word lists for generated names and handles (lower-case ASCII, valid ENS labels). */
export const NAME_ADJECTIVES = [
  'amber',
  'brave',
  'calm',
  'crisp',
  'dusty',
  'eager',
  'fuzzy',
  'gentle',
  'hazel',
  'icy',
  'jolly',
  'keen',
  'lucky',
  'mellow',
  'noble',
  'olive',
  'proud',
  'quiet',
  'rapid',
  'silver',
  'tidy',
  'vivid',
  'witty',
  'zesty',
] as const;

export const NAME_NOUNS = [
  'otter',
  'falcon',
  'maple',
  'comet',
  'harbor',
  'lynx',
  'meadow',
  'pixel',
  'quartz',
  'river',
  'sparrow',
  'tiger',
  'vault',
  'willow',
  'anchor',
  'beacon',
  'cedar',
  'delta',
  'ember',
  'fjord',
] as const;

/** Passport stamp providers; `ENS` is verified exactly when the profile has a primary name. */
export const PASSPORT_PROVIDERS = [
  'Google',
  'Github',
  'Discord',
  'Linkedin',
  'X',
  'ENS',
  'Ethereum',
  'Coinbase',
  'Binance',
  'Holonym',
] as const;

/** Attendance-token events; each one a profile attends is named `<event> <year>`. */
export const POAP_EVENTS = [
  'ETHDenver',
  'EthCC',
  'Devcon',
  'ETHGlobal Online',
  'Onchain Summer',
  'Optimism Community Call',
  'Arbitrum Odyssey',
  'Polygon Connect',
  'DappCon',
  'ETHPrague',
  'Devconnect',
  'ETHWaterloo',
] as const;

/** Where a generated ENS avatar points (the ENS metadata service's URL scheme). */
export function ensAvatarUrl(name: string): string {
  return `https://metadata.ens.domains/mainnet/avatar/${encodeURIComponent(name)}`;
}
