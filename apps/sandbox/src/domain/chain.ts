import { DomainError } from '@credit/contracts/errors';
import { SANDBOX_CHAINS, sandboxChain, type SandboxChain } from '../generator/chains';

/** A chain of the sandbox chain table, or 400 `unsupported_chain`. */
export function supportedChain(chainId: number): SandboxChain {
  const chain = sandboxChain(chainId);
  if (!chain) {
    const supported = SANDBOX_CHAINS.map((c) => `${c.id} (${c.name})`).join(', ');
    throw new DomainError('unsupported_chain', `Chain ${chainId} is not supported; supported chains: ${supported}`);
  }
  return chain;
}
