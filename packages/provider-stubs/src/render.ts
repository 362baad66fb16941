// The providers' documented answer shapes, rendered from fixtures. See apps/identity/PROVIDERS.md.
import type { AddressFixture } from './fixtures';

const DAY_MS = 24 * 60 * 60 * 1000;
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** Human Passport Stamps API v2 `GET /v2/stamps/{scorer_id}/score/{address}`; an unknown address scores 0. */
export function passportScore(address: string, fixture: AddressFixture['passport'], now: Date): object {
  const stamps = fixture?.stamps ?? [];
  const score = fixture?.score ?? '0.00000';
  const expires = stamps.length > 0 ? new Date(now.getTime() + 90 * DAY_MS).toISOString() : null;
  const each = stamps.length > 0 ? (Number(score) / stamps.length).toFixed(5) : '0.00000';
  return {
    address,
    score,
    passing_score: Number(score) >= 20,
    last_score_timestamp: now.toISOString(),
    expiration_timestamp: expires,
    threshold: '20.00000',
    error: null,
    stamps: Object.fromEntries(stamps.map((provider) => [provider, { score: each, dedup: false, expiration_date: expires }])),
  };
}

/** POAP `GET /actions/scan/{address}`: one token per event, dates as POAP's `DD-Mon-YYYY`. */
export function poapScan(address: string, fixture: AddressFixture['poaps']): object[] {
  return (fixture ?? []).map((event, i) => ({
    event: {
      id: 100_000 + i,
      fancy_id: `${slug(event.name)}-${event.date.slice(0, 4)}`,
      name: event.name,
      event_url: 'https://poap.xyz',
      image_url: `https://assets.poap.xyz/${slug(event.name)}.png`,
      country: '',
      city: '',
      description: event.name,
      year: Number(event.date.slice(0, 4)),
      start_date: poapDate(event.date),
      end_date: poapDate(event.date),
      expiry_date: poapDate(event.date),
      supply: 100,
    },
    tokenId: String(7_000_000 + i),
    owner: address,
    chain: 'xdai',
    created: `${event.date} 12:00:00`,
  }));
}

/** Neynar `User` (the required fields of the OpenAPI schema). */
export function neynarUser(address: string, username: string, fid: number, now: Date): object {
  return {
    object: 'user',
    fid,
    username,
    display_name: username,
    custody_address: address,
    pfp_url: null,
    registered_at: now.toISOString(),
    profile: { bio: { text: '' } },
    follower_count: 0,
    following_count: 0,
    verifications: [address],
    auth_addresses: [],
    verified_addresses: { eth_addresses: [address], sol_addresses: [], primary: { eth_address: address, sol_address: null } },
    verified_accounts: [],
  };
}

/** Lens `AccountOwned` of `accountsAvailable`, with the global-namespace username. */
export function lensOwnedAccount(localName: string, accountAddress: string, now: Date): object {
  return {
    __typename: 'AccountOwned',
    addedAt: now.toISOString(),
    account: {
      __typename: 'Account',
      address: accountAddress,
      username: { __typename: 'Username', localName, value: `lens/${localName}` },
    },
  };
}

function poapDate(isoDate: string): string {
  const [year, month, day] = isoDate.split('-');
  return `${day}-${MONTHS[Number(month) - 1]}-${year}`;
}

function slug(name: string): string {
  return name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}
