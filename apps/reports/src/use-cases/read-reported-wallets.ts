import type { Address } from 'viem';
import { DomainError } from '@credit/contracts/errors';
import type { ChainReportRequest } from '@credit/contracts/schemas/report';
import { hasAnyActivity, type WalletView } from '@credit/wallet/wallet-view';
import { chainFigures, type ChainFigures } from '../domain/chain-figures';
import type { ReportsDeps } from './reports-deps';

/** One address as the reports see it: its figures per chain (registry order), when they were read, its attestations. */
export interface ReportedWallet {
  address: Address;
  computedAt: string;
  chains: ChainFigures[];
  attestations: readonly string[];
}

function noActivity(address: Address): DomainError {
  return new DomainError('no_activity', `No on-chain activity found for ${address}`);
}

/**
 * An address parameter read for a report: resolved (invalid or unknown → 404 `address_not_found`),
 * its wallet read (cached for 5 minutes, unless `fresh`), no activity on any chain → 404
 * `no_activity`, incomplete chain data → 503.
 */
export async function readReportedWallet(input: string, deps: ReportsDeps, options: { fresh?: boolean } = {}): Promise<ReportedWallet> {
  const address = await deps.resolver.resolveOne(input);
  const views = await deps.reader.readWallets([address], options);
  const view = views.get(address)!;
  if (!hasAnyActivity(view)) throw noActivity(address);
  return reportedWallet(view);
}

/**
 * A list of address parameters (the aggregated report): invalid and unknown entries skipped,
 * repeats once, none valid → 400 `no_valid_address`; the valid wallets read together (one cache
 * read, one query and one multicall per chain for the misses); wallets without activity are left
 * out, and none with activity → 404 `no_activity`.
 */
export async function readReportedWallets(inputs: readonly string[], deps: ReportsDeps): Promise<ReportedWallet[]> {
  const addresses = await deps.resolver.resolveMany(inputs);
  const views = await deps.reader.readWallets(addresses);
  const active = addresses.map((a) => views.get(a)!).filter(hasAnyActivity);
  if (active.length === 0) throw new DomainError('no_activity', 'No on-chain activity found for any of the addresses supplied');
  return active.map(reportedWallet);
}

function reportedWallet(view: WalletView): ReportedWallet {
  return {
    address: view.address as Address,
    computedAt: view.computedAt,
    chains: view.chains.map(chainFigures),
    attestations: view.attestations,
  };
}

/** The chain a chain route names: one the service reads, else 404 `chain_not_found` naming it. */
function knownChain(chainId: number, deps: ReportsDeps): { id: number; name: string } {
  const chain = deps.chains.find((c) => c.id === chainId);
  if (!chain) {
    throw new DomainError(
      'chain_not_found',
      `Chain ${chainId} is not one this service reports on (configured: ${deps.chains.map((c) => c.id).join(', ')})`,
    );
  }
  return chain;
}

/**
 * A chain route's wallet and chain: the chain must be one the service reads (else 404
 * `chain_not_found`, checked before anything is read), the address active on some chain.
 */
export async function readReportedWalletOnChain(
  request: ChainReportRequest,
  deps: ReportsDeps,
): Promise<{ wallet: ReportedWallet; figures: ChainFigures }> {
  const chain = knownChain(request.chain_id, deps);
  const wallet = await readReportedWallet(request.address, deps);
  const figures = wallet.chains.find((c) => c.chainId === chain.id)!;
  return { wallet, figures };
}
