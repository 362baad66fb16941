import { sandboxAddressOfName } from '../src/domain/resolve';
import { identityAttestations } from '../src/use-cases/identity-attestations';
import { reportChain } from '../src/use-cases/report-chain';
import { reportFull } from '../src/use-cases/report-full';
import { reportSummary } from '../src/use-cases/report-summary';
import { reportTotalUsd } from '../src/use-cases/report-total-usd';
import { INVALID, NAME, NOW, codeOf, req, valid } from './support/use-case-calls';

describe('identity use case', () => {
  it('docs/API.md §2.6 with cached false; a name is its own primary name', () => {
    const reply = valid(
      'credit.sandbox.identity.attestations.v1',
      identityAttestations(req('credit.sandbox.identity.attestations.v1', { address: NAME }), NOW),
    );
    expect(reply.address).toBe(sandboxAddressOfName(NAME));
    expect(reply.cached).toBe(false);
    expect(reply.ens?.primary_name).toBe(NAME);
    expect(reply.ens?.owned_names).toContain(NAME);
    expect(reply.ext_passport?.score).toBeGreaterThanOrEqual(0);
    expect(reply.poaps?.count).toBe(reply.poaps?.events.length);
    expect(identityAttestations(req('credit.sandbox.identity.attestations.v1', { address: NAME }), NOW)).toEqual(reply);
    expect(codeOf(() => identityAttestations(req('credit.sandbox.identity.attestations.v1', { address: INVALID }), NOW))).toBe(
      'address_not_found',
    );
  });

  it('every reply is valid for a spread of inputs', () => {
    for (let i = 0; i < 60; i++) {
      const address = i % 3 === 0 ? `user${i}.eth` : `0x${i.toString(16).padStart(40, '0')}`;
      valid(
        'credit.sandbox.identity.attestations.v1',
        identityAttestations(req('credit.sandbox.identity.attestations.v1', { address }), NOW),
      );
      valid('credit.sandbox.report.full.v1', reportFull(req('credit.sandbox.report.full.v1', { address }), NOW));
      valid('credit.sandbox.report.summary.v1', reportSummary(req('credit.sandbox.report.summary.v1', { address }), NOW));
      valid('credit.sandbox.report.total-usd.v1', reportTotalUsd(req('credit.sandbox.report.total-usd.v1', { address }), NOW));
      for (const chain_id of [1, 8453, 10, 42161, 137]) {
        valid('credit.sandbox.report.chain.v1', reportChain(req('credit.sandbox.report.chain.v1', { address, chain_id }), NOW));
      }
    }
  });
});
