import type { HexString } from '../src/chain-activity-types';

/** A distinct, readable address for test number `n` (`addr(0xa11ce)` is Alice). */
export const addr = (n: number): HexString => `0x${n.toString(16).padStart(40, '0')}`;
/** A distinct transaction or block hash for test number `n`. */
export const hash = (n: number): HexString => `0x${n.toString(16).padStart(64, '0')}`;
