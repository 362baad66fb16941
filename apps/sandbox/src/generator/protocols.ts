/**
 * Lending protocols of the sandbox, the chains each is deployed on, and the loan-to-value limit
 * (basis points) that caps a position: borrowed ≤ supplied × LTV.
 */
export interface SandboxProtocolDef {
  readonly name: string;
  readonly chains: readonly number[];
  readonly ltvBps: number;
}

export const SANDBOX_PROTOCOLS: readonly SandboxProtocolDef[] = [
  { name: 'Aave V3', chains: [1, 8453, 10, 42161, 137], ltvBps: 8_000 },
  { name: 'Compound V3', chains: [1, 8453, 10, 42161, 137], ltvBps: 7_500 },
  { name: 'Spark', chains: [1], ltvBps: 7_500 },
  { name: 'Morpho Blue', chains: [1, 8453], ltvBps: 8_600 },
];
