import { lookup } from 'node:dns/promises';
import { BlockList, isIP, type LookupFunction } from 'node:net';

/** Where a target URL may point: public addresses over https, or (the devnet's operator) anything. */
export interface TargetPolicy {
  /** `WEBHOOK_ALLOW_PRIVATE=1`: http and private, loopback and link-local addresses allowed. */
  allowPrivate: boolean;
  /** How long the name's resolution may take. */
  resolveTimeoutMs?: number;
}

/** A target URL that passed the guard, with the addresses its name resolved to on this check. */
export interface CheckedTarget {
  url: URL;
  addresses: { address: string; family: 4 | 6 }[];
}

/** Why a target URL is refused; its message is fit for the caller (a 400, or a failed attempt). */
export class TargetRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TargetRefused';
  }
}

/**
 * Addresses a webhook may never reach: private (RFC 1918, ULA), loopback, link-local, shared
 * (CGNAT), unspecified, multicast, reserved and documentation ranges, and IPv6 forms that embed an
 * IPv4 address (checked as that address).
 */
const NOT_PUBLIC = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  NOT_PUBLIC.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['64:ff9b::', 96],
  ['100::', 64],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const) {
  NOT_PUBLIC.addSubnet(network, prefix, 'ipv6');
}

/** Whether an IP address is one a webhook must not reach without `allowPrivate`. */
export function isNonPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return NOT_PUBLIC.check(address, 'ipv4');
  if (family !== 6) return true;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return NOT_PUBLIC.check(mapped[1]!, 'ipv4');
  return NOT_PUBLIC.check(address, 'ipv6');
}

/**
 * Checks a target URL, resolving its name now (node:dns, every address it has): https only, no
 * credentials in it, and every address public, unless the policy allows private targets. Run when a
 * webhook is saved and again before every attempt, whose connection then goes to the addresses
 * checked here (`pinnedLookup`), so a name that changes between the check and the connection
 * cannot redirect it.
 */
export async function checkTarget(raw: string, policy: TargetPolicy): Promise<CheckedTarget> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new TargetRefused('url: must be an absolute URL');
  }
  const schemes = policy.allowPrivate ? ['https:', 'http:'] : ['https:'];
  if (!schemes.includes(url.protocol)) throw new TargetRefused(`url: must be ${policy.allowPrivate ? 'http or https' : 'https'}`);
  if (url.username !== '' || url.password !== '') throw new TargetRefused('url: must not carry credentials');
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  const addresses = await resolve(host, policy.resolveTimeoutMs ?? 5_000);
  if (!policy.allowPrivate) {
    const blocked = addresses.find((a) => isNonPublicAddress(a.address));
    if (blocked) throw new TargetRefused(`url: ${host} resolves to ${blocked.address}, a private, loopback or link-local address`);
  }
  return { url, addresses };
}

async function resolve(host: string, timeoutMs: number): Promise<CheckedTarget['addresses']> {
  const family = isIP(host);
  if (family !== 0) return [{ address: host, family: family as 4 | 6 }];
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new TargetRefused(`url: ${host} did not resolve within ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    const found = await Promise.race([lookup(host, { all: true, verbatim: true }), timeout]);
    if (found.length === 0) throw new TargetRefused(`url: ${host} has no address`);
    return found.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
  } catch (error) {
    if (error instanceof TargetRefused) throw error;
    throw new TargetRefused(`url: ${host} does not resolve (${(error as NodeJS.ErrnoException).code ?? 'lookup failed'})`);
  } finally {
    clearTimeout(timer);
  }
}

/** A `lookup` for node:http(s) that answers with the addresses the guard checked, never asking DNS again. */
export function pinnedLookup(target: CheckedTarget): LookupFunction {
  return (_hostname, options, callback) => {
    const all = target.addresses;
    if (options.all) {
      callback(null, all);
      return;
    }
    const first = all.find((a) => options.family === undefined || options.family === 0 || a.family === options.family) ?? all[0]!;
    callback(null, first.address, first.family);
  };
}
