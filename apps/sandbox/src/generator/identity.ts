import { NAME_ADJECTIVES, NAME_NOUNS, PASSPORT_PROVIDERS, POAP_EVENTS, ensAvatarUrl } from './identity-tables';
import type { Rng } from './prng';
import { isoDate } from './time-bounds';
import type { SandboxIdentity } from './types';

function generatedLabel(rng: Rng): string {
  const base = `${rng.pick(NAME_ADJECTIVES)}${rng.pick(NAME_NOUNS)}`;
  return rng.chance(0.3) ? `${base}${rng.int(1, 99)}` : base;
}

/** A name input owns itself as primary name; a generated primary name is `<label>.eth`. */
export function ensRecord(rng: Rng, ownName: string | undefined): NonNullable<SandboxIdentity['ens']> {
  const primaryName = ownName ?? `${generatedLabel(rng)}.eth`;
  const ownedNames = [primaryName];
  const extra = rng.int(0, 2);
  for (let i = 0; i < extra; i++) {
    const name = `${generatedLabel(rng)}.eth`;
    if (!ownedNames.includes(name)) ownedNames.push(name);
  }
  return { primaryName, ownedNames, avatar: rng.chance(0.6) ? ensAvatarUrl(primaryName) : null };
}

/**
 * Passport: some of the providers, each verified or not; `ENS` appears, verified, exactly for an
 * ENS holder. The score (0–100, two decimals) grows with the verified stamps and is 0 without any.
 */
export function passport(rng: Rng, quality: number, hasEns: boolean): SandboxIdentity['passport'] {
  const stamps: { provider: string; verified: boolean }[] = [];
  for (const provider of PASSPORT_PROVIDERS) {
    if (provider === 'ENS') {
      if (hasEns) stamps.push({ provider, verified: true });
      continue;
    }
    if (rng.chance(0.2 + 0.4 * quality)) stamps.push({ provider, verified: rng.chance(0.55 + 0.4 * quality) });
  }
  let hundredths = 0;
  for (const stamp of stamps) if (stamp.verified) hundredths += rng.int(800, 1_600);
  return { score: Math.min(10_000, hundredths) / 100, stamps };
}

/** Attendance tokens dated between the first and the last transaction, oldest first, one per event. */
export function poaps(rng: Rng, quality: number, from: number, to: number): SandboxIdentity['poaps'] {
  const wanted = rng.int(0, Math.floor(2 + 10 * quality));
  const byName = new Map<string, { name: string; date: string }>();
  for (let i = 0; i < wanted; i++) {
    const date = isoDate(from + Math.floor((to - from) * rng.float()));
    const name = `${rng.pick(POAP_EVENTS)} ${date.slice(0, 4)}`;
    if (!byName.has(name)) byName.set(name, { name, date });
  }
  const events = [...byName.values()].sort((a, b) => compare(a.date, b.date) || compare(a.name, b.name));
  return { count: events.length, events };
}

/** Social handles for some addresses (more often for ENS holders, whose handle is their name's label). */
export function social(rng: Rng, primaryName: string | undefined): Record<string, string> | undefined {
  if (!rng.chance(primaryName === undefined ? 0.25 : 0.65)) return undefined;
  const fromName =
    primaryName
      ?.split('.')[0]
      ?.toLowerCase()
      .replace(/[^a-z0-9]/g, '') ?? '';
  const handle = fromName.length >= 3 ? fromName : generatedLabel(rng);
  const lens = rng.chance(0.6);
  const farcaster = rng.chance(0.7) || !lens;
  const result: Record<string, string> = {};
  if (lens) result['lens'] = `${handle}.lens`;
  if (farcaster) result['farcaster'] = handle;
  return result;
}

/** The identity attestations a profile carries, as strings, deduplicated, in a fixed order. */
export function attestationsOf(identity: SandboxIdentity): string[] {
  const list: string[] = [];
  if (identity.ens) list.push(`ens:${identity.ens.primaryName}`);
  for (const stamp of identity.passport.stamps) if (stamp.verified) list.push(`passport:${stamp.provider}`);
  for (const event of identity.poaps.events) list.push(`poap:${event.name}`);
  for (const [network, handle] of Object.entries(identity.social ?? {})) list.push(`${network}:${handle}`);
  return [...new Set(list)];
}

/** Code-unit order: the same everywhere (no locale). */
function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
