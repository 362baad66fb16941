/** The gateway's clock (ms since the epoch): the month a charge falls in, the rate limit's refill. Tests inject one. */
export type Clock = () => number;

export const CLOCK = Symbol('Clock');
