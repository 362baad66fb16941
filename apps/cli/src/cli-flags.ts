import { parseArgs } from 'node:util';
import { PLAN_NAMES, type PlanName } from '@credit/contracts/pricing';
import { UsageError } from './cli-errors';

export type StringFlags<N extends string> = { [K in N]?: string };

/**
 * Parses the `--name value` flags of a command (every flag takes a value). Unknown flags, a flag
 * without its value and stray arguments are usage errors.
 */
export function parseFlags<N extends string>(command: string, args: string[], names: readonly N[]): StringFlags<N> {
  const options: Record<string, { type: 'string' }> = {};
  for (const name of names) options[name] = { type: 'string' };
  try {
    const { values } = parseArgs({ args, options, strict: true, allowPositionals: false });
    return values as StringFlags<N>;
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new UsageError(`${command}: ${reason}`);
  }
}

/** The flag's value, trimmed; a usage error when it is missing or blank. */
export function requireFlag(command: string, flags: Record<string, unknown>, name: string): string {
  const value = flags[name];
  if (typeof value !== 'string' || value.trim() === '') {
    throw new UsageError(`${command}: missing --${name}`);
  }
  return value.trim();
}

const EMAIL_PATTERN = /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/;

/** A plausible email address, lowercased. */
export function parseEmail(command: string, value: string): string {
  const email = value.trim().toLowerCase();
  if (email.length > 254 || !EMAIL_PATTERN.test(email)) {
    throw new UsageError(`${command}: --email must be an email address, got "${value}"`);
  }
  return email;
}

export function parsePlan(command: string, value: string): PlanName {
  const plan = value.trim().toLowerCase();
  if (!(PLAN_NAMES as string[]).includes(plan)) {
    throw new UsageError(`${command}: --plan must be one of ${PLAN_NAMES.join(', ')}, got "${value}"`);
  }
  return plan as PlanName;
}

/** A whole number of CU a month, ≥ 0 (an enterprise account's contracted allowance). */
export function parseMonthlyCu(command: string, value: string): number {
  const text = value.trim();
  const cu = Number(text);
  if (!/^\d+$/.test(text) || !Number.isSafeInteger(cu)) {
    throw new UsageError(`${command}: --monthly-cu must be a whole number of CU ≥ 0, got "${value}"`);
  }
  return cu;
}

const KEY_ID_PATTERN = /^key_[0-9A-Za-z]{1,64}$/;

export function parseKeyId(command: string, value: string): string {
  const keyId = value.trim();
  if (KEY_ID_PATTERN.test(keyId)) return keyId;
  if (keyId.startsWith('csk_')) {
    throw new UsageError(`${command}: --key-id takes the key's id (key_…, see keys:list), not the key itself`);
  }
  throw new UsageError(`${command}: --key-id must look like key_…, got "${value}"`);
}

/** A 20-byte hex address (any case), lowercased. */
export function parseAddress(command: string, flag: string, value: string): string {
  const address = value.trim();
  if (!/^0x[0-9a-fA-F]{40}$/.test(address))
    throw new UsageError(`${command}: --${flag} must be a 0x address of 40 hex digits, got "${value}"`);
  return address.toLowerCase();
}

/** A whole number from 1 to `max`. */
export function parseLimit(command: string, value: string, max: number): number {
  const text = value.trim();
  const n = Number(text);
  if (!/^\d+$/.test(text) || n < 1 || n > max)
    throw new UsageError(`${command}: --limit must be a whole number from 1 to ${max}, got "${value}"`);
  return n;
}
