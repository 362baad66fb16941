/**
 * The gas limit of a `transferWithAuthorization` signed by a key (v, r, s): the token checks one
 * ECDSA signature and moves a balance (65,800 gas on the devnet's token), so this is not estimated
 * on each send (an estimate ran the transfer several times over on the node: a third of the
 * devnet's CPU a settlement). The same limit @x402/evm sends its own proxy settlement with. Only
 * the gas used is paid. A signature checked by a contract (ERC-1271) runs that contract's code
 * and is still estimated.
 */
export const KEY_SIGNED_TRANSFER_GAS = 300_000n;
/** `transferWithAuthorization(from, to, value, validAfter, validBefore, nonce, v, r, s)` */
const KEY_SIGNED_TRANSFER_ARGS = 9;

/** A key-signed transfer's write with its gas limit set (KEY_SIGNED_TRANSFER_GAS); any other write as it is. */
export function withTransferGas<T extends object>(write: T): T {
  const { functionName, args, gas } = write as { functionName?: string; args?: readonly unknown[]; gas?: bigint };
  if (functionName !== 'transferWithAuthorization' || gas !== undefined || args?.length !== KEY_SIGNED_TRANSFER_ARGS) return write;
  return { ...write, gas: KEY_SIGNED_TRANSFER_GAS };
}
