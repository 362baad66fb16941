import { writeFileSync } from 'node:fs';

/**
 * The devnet's payment chain as `.devnet/state.json` gives it (`payments`, written by
 * @credit/devnet), declared structurally: this package does not depend on the devnet.
 */
export interface DevnetPaymentsLike {
  network: string;
  rpcUrl: string;
  token: string;
  tokenName: string;
  tokenVersion: string;
  decimals: number;
  payTo: string;
  /** The facilitator's devnet-only signers (four), each funded with the chain's ETH for gas. */
  facilitators: { address: string; privateKey: string }[];
}

/**
 * The x402 environment of a stack on the devnet: payments go to the devnet's receiver, the
 * payment chain's network (`eip155:84532`) points at the devnet's own EIP-3009 token and chain
 * (written to `networksFile`), and the self-hosted facilitator signs with the devnet's signer.
 */
export function devnetX402Env(payments: DevnetPaymentsLike, networksFile: string): Record<string, string> {
  const networks = [
    {
      network: payments.network,
      asset: payments.token,
      tokenName: payments.tokenName,
      tokenVersion: payments.tokenVersion,
      decimals: payments.decimals,
      rpcUrl: payments.rpcUrl,
    },
  ];
  writeFileSync(networksFile, `${JSON.stringify(networks, null, 2)}\n`);
  return {
    X402_PAY_TO: payments.payTo,
    X402_NETWORKS_FILE: networksFile,
    X402_FACILITATOR_PRIVATE_KEYS: payments.facilitators.map((signer) => signer.privateKey).join(','),
  };
}
