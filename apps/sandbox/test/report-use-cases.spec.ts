import { DomainError } from '@credit/contracts/errors';
import { rangeOf } from '@credit/score-model/score-bands';
import { sandboxProfile } from '../src/generator/profile';
import { sandboxAddressOfName } from '../src/domain/resolve';
import { reportAggregate } from '../src/use-cases/report-aggregate';
import { reportChain } from '../src/use-cases/report-chain';
import { reportChainTotalUsd } from '../src/use-cases/report-chain-total-usd';
import { reportEnhanced } from '../src/use-cases/report-enhanced';
import { reportFull } from '../src/use-cases/report-full';
import { reportSummary } from '../src/use-cases/report-summary';
import { reportTotalUsd } from '../src/use-cases/report-total-usd';
import { reportTotalUsdAggregate } from '../src/use-cases/report-total-usd-aggregate';
import { A, B, INVALID, NAME, NOW, cents, codeOf, req, valid } from './support/use-case-calls';

describe('report use cases', () => {
  it('full: the flat sandbox report of docs/API.md §2.8, consistent with the profile', () => {
    const reply = valid('credit.sandbox.report.full.v1', reportFull(req('credit.sandbox.report.full.v1', { address: B }), NOW));
    const p = sandboxProfile(B);
    expect(reply.sandbox).toBe(true);
    expect(reply.cached).toBe(false);
    expect(reply.score).toEqual({ value: p.score, classification: rangeOf(p.score) });
    expect(cents(reply.assets.total_value_usd)).toBe(reply.assets.tokens.reduce((n, t) => n + cents(t.value_usd), 0));
    expect(cents(reply.defi.total_supplied)).toBe(reply.defi.protocols.reduce((n, d) => n + cents(d.supplied), 0));
    expect(cents(reply.defi.total_borrowed)).toBe(reply.defi.protocols.reduce((n, d) => n + cents(d.borrowed), 0));
    expect(reply.activity.first_transaction).toBe(new Date(p.firstTransaction.timestamp * 1000).toISOString());
    expect(reply.activity.total_transactions).toBe(p.counts.transactions);
    expect(reply.activity.active_chains).toEqual(p.activeChains);
    expect(reportFull(req('credit.sandbox.report.full.v1', { address: B }), NOW)).toEqual(reply);
  });

  it('enhanced: on-chain plus off-chain figures in the summary, supplied figures echoed, chains empty', () => {
    const onChain = sandboxProfile(B);
    const reply = valid(
      'credit.sandbox.report.enhanced.v1',
      reportEnhanced(
        req('credit.sandbox.report.enhanced.v1', {
          address: B,
          source: { name: 'Acme Bank', total_asset_usd: 1000.1, total_collateral_usd: 250, count_transactions: 7 },
        }),
        NOW,
      ),
    );
    const { report } = reply;
    expect(report.chains).toEqual([]);
    expect(report.additional).toEqual({
      source: { name: 'Acme Bank', data: { total_asset_usd: 1000.1, total_collateral_usd: 250, count_transactions: 7 } },
    });
    expect(cents(report.summary.total_asset_usd)).toBe(cents(onChain.totalAssetUsd) + 100_010);
    expect(cents(report.summary.total_collateral_usd)).toBe(cents(onChain.totalSuppliedUsd) + 25_000);
    expect(report.summary.total_debt_usd).toBe(onChain.totalBorrowedUsd);
    expect(report.summary.count_transactions).toBe(onChain.counts.transactions + 7);
    expect(report.summary.count_transfers).toBe(onChain.counts.transfers);
    expect(report.summary.count_identity_attestations).toBe(onChain.attestations.length);
    expect(report.first_transaction?.timestamp).toBe(onChain.firstTransaction.timestamp);
    expect(typeof report.last_transaction?.timestamp).toBe('number');
  });

  it('enhanced: a missing name is 400 missing_source_name with the text of docs/API.md §4.2; negative figures are 400', () => {
    let error: unknown;
    try {
      req('credit.sandbox.report.enhanced.v1', { address: B, source: { total_asset_usd: 5 } as never });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(DomainError);
    expect((error as DomainError).code).toBe('missing_source_name');
    expect((error as DomainError).message).toBe('Additional data must provide a name field');
    expect(codeOf(() => req('credit.sandbox.report.enhanced.v1', { address: B, source: { name: 'x', total_debt_usd: -3 } }))).toBe(
      'invalid_body',
    );
    expect(codeOf(() => reportEnhanced(req('credit.sandbox.report.enhanced.v1', { address: INVALID, source: { name: 'x' } }), NOW))).toBe(
      'address_not_found',
    );
  });

  it('aggregate: sums, merged attestations, earliest first / latest last, chains merged per chain', () => {
    const keys = [A, B, NAME];
    const profiles = keys.map(sandboxProfile);
    const reply = valid(
      'credit.sandbox.report.aggregate.v1',
      reportAggregate(req('credit.sandbox.report.aggregate.v1', { addresses: [A, INVALID, B, NAME] }), NOW),
    );
    const { report } = reply;
    expect(report.address).toEqual([A, B, sandboxAddressOfName(NAME)]);
    expect(Object.keys(report.summary).sort()).toEqual(
      [
        'total_asset_usd',
        'total_collateral_usd',
        'total_debt_usd',
        'count_transactions',
        'count_transfers',
        'count_balances',
        'count_identity_attestations',
        'list_identity_attestations',
      ].sort(),
    );
    expect(cents(report.summary.total_asset_usd)).toBe(profiles.reduce((n, p) => n + cents(p.totalAssetUsd), 0));
    expect(cents(report.summary.total_debt_usd)).toBe(profiles.reduce((n, p) => n + cents(p.totalBorrowedUsd), 0));
    expect(report.summary.count_transactions).toBe(profiles.reduce((n, p) => n + p.counts.transactions, 0));
    expect(report.summary.count_balances).toBe(profiles.reduce((n, p) => n + p.counts.balances, 0));
    const merged = new Set(profiles.flatMap((p) => p.attestations));
    expect(new Set(report.summary.list_identity_attestations)).toEqual(merged);
    expect(report.summary.list_identity_attestations).toHaveLength(merged.size);
    expect(report.summary.count_identity_attestations).toBe(merged.size);
    expect(report.first_transaction?.timestamp).toBe(Math.min(...profiles.map((p) => p.firstTransaction.timestamp)));
    expect(report.last_transaction?.timestamp).toBe(Math.max(...profiles.map((p) => p.lastTransaction.timestamp)));
    expect(report.chains.map((c) => c.chain.id)).toEqual([1, 8453, 10, 42161, 137]);
    expect(report.chains.reduce((n, c) => n + cents(c.chain.current_balance_usd), 0)).toBe(cents(report.summary.total_asset_usd));
    expect(report.chains.reduce((n, c) => n + c.chain.transaction_count, 0)).toBe(report.summary.count_transactions);
    for (const c of report.chains) {
      expect(c.chain.has_past_activity).toBe(profiles.some((p) => p.activeChains.includes(c.chain.id)));
      expect(c.chain.balances.reduce((n, b) => n + cents(b.usd_value), 0)).toBe(cents(c.chain.current_balance_usd));
    }
    expect(codeOf(() => reportAggregate(req('credit.sandbox.report.aggregate.v1', { addresses: [INVALID] }), NOW))).toBe(
      'no_valid_address',
    );
  });

  it('summary: ISO transaction times and the six fields of docs/API.md §4.5, no chains', () => {
    const p = sandboxProfile(B);
    const reply = valid('credit.sandbox.report.summary.v1', reportSummary(req('credit.sandbox.report.summary.v1', { address: B }), NOW));
    expect(reply).toEqual({
      report: {
        address: B,
        timestamp: NOW.toISOString(),
        first_transaction: {
          timestamp: new Date(p.firstTransaction.timestamp * 1000).toISOString(),
          block_number: p.firstTransaction.blockNumber,
          chain_id: p.firstTransaction.chainId,
        },
        last_transaction: {
          timestamp: new Date(p.lastTransaction.timestamp * 1000).toISOString(),
          block_number: p.lastTransaction.blockNumber,
          chain_id: p.lastTransaction.chainId,
        },
        summary: {
          total_asset_usd: p.totalAssetUsd,
          total_collateral_usd: p.totalSuppliedUsd,
          total_debt_usd: p.totalBorrowedUsd,
          count_transactions: p.counts.transactions,
          count_transfers: p.counts.transfers,
          count_identity_attestations: p.attestations.length,
        },
      },
    });
  });

  it('chain: the report of one chain; inactive chains are empty; unknown chains are 400', () => {
    const p = sandboxProfile(B);
    for (const chain of p.chains) {
      const { report } = valid(
        'credit.sandbox.report.chain.v1',
        reportChain(req('credit.sandbox.report.chain.v1', { address: B, chain_id: chain.chainId }), NOW),
      );
      expect(report.chains).toHaveLength(1);
      expect(report.chains[0]!.chain).toMatchObject({
        id: chain.chainId,
        name: chain.chainName,
        has_past_activity: chain.active,
        current_balance_usd: chain.assetUsd,
        transaction_count: chain.counts.transactions,
      });
      expect(report.summary.total_asset_usd).toBe(chain.assetUsd);
      expect(report.summary.count_transactions).toBe(chain.counts.transactions);
      expect(report.summary.count_balances).toBe(chain.counts.balances);
      if (chain.active) {
        expect(report.first_transaction).toEqual({
          timestamp: chain.firstTransaction!.timestamp,
          block_number: chain.firstTransaction!.blockNumber,
          chain_id: chain.chainId,
        });
      } else {
        expect(report.first_transaction).toBeUndefined();
        expect(report.summary.count_transactions).toBe(0);
      }
    }
    expect(codeOf(() => reportChain(req('credit.sandbox.report.chain.v1', { address: B, chain_id: 56 }), NOW))).toBe('unsupported_chain');
    expect(codeOf(() => reportChain(req('credit.sandbox.report.chain.v1', { address: INVALID, chain_id: 56 }), NOW))).toBe(
      'unsupported_chain',
    );
    expect(codeOf(() => reportChain(req('credit.sandbox.report.chain.v1', { address: INVALID, chain_id: 1 }), NOW))).toBe(
      'address_not_found',
    );
    expect(codeOf(() => req('credit.sandbox.report.chain.v1', { address: B, chain_id: -1 }))).toBe('invalid_parameter');
  });

  it('total usd: the all-chains value and its composition by active chain', () => {
    const p = sandboxProfile(B);
    const reply = valid(
      'credit.sandbox.report.total-usd.v1',
      reportTotalUsd(req('credit.sandbox.report.total-usd.v1', { address: B }), NOW),
    );
    expect(reply.total_asset_usd).toBe(p.totalAssetUsd);
    expect(reply.chains.map((c) => c.chain_id)).toEqual(p.activeChains);
    expect(reply.chains.reduce((n, c) => n + cents(c.total_asset_usd), 0)).toBe(cents(reply.total_asset_usd));
  });

  it('total usd aggregate: docs/API.md §2.7 all-chains form', () => {
    const reply = valid(
      'credit.sandbox.report.total-usd-aggregate.v1',
      reportTotalUsdAggregate(req('credit.sandbox.report.total-usd-aggregate.v1', { address: B }), NOW),
    );
    expect(reply).toEqual({ address: B, total_asset_usd: sandboxProfile(B).totalAssetUsd, timestamp: NOW.toISOString() });
  });

  it('chain total usd: docs/API.md §2.7 single-chain form; unknown chains are 400', () => {
    const p = sandboxProfile(B);
    const reply = valid(
      'credit.sandbox.report.chain-total-usd.v1',
      reportChainTotalUsd(req('credit.sandbox.report.chain-total-usd.v1', { address: B, chain_id: 1 }), NOW),
    );
    expect(reply).toEqual({
      address: B,
      chain_id: 1,
      chain_name: 'Ethereum',
      total_asset_usd: p.chains[0]!.assetUsd,
      timestamp: NOW.toISOString(),
    });
    expect(codeOf(() => reportChainTotalUsd(req('credit.sandbox.report.chain-total-usd.v1', { address: B, chain_id: 999 }), NOW))).toBe(
      'unsupported_chain',
    );
  });
});
