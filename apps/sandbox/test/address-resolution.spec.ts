import { execFileSync } from 'node:child_process';
import { sandboxProfile } from '../src/generator/profile';
import { sandboxAddressOfName } from '../src/domain/resolve';
import { reportFull } from '../src/use-cases/report-full';
import { scoreAddress } from '../src/use-cases/score-address';
import { A, B, INVALID, NAME, NOW, codeOf, req } from './support/use-case-calls';

describe('address resolution', () => {
  it('checksums hex input, whatever its case', () => {
    const lower = scoreAddress(req('credit.sandbox.score.address.v1', { address: A.toLowerCase() }), NOW);
    const upper = scoreAddress(req('credit.sandbox.score.address.v1', { address: `0x${A.slice(2).toUpperCase()}` }), NOW);
    expect(lower.address).toBe(A);
    expect(lower).toEqual(upper);
  });

  it('gives a name a stable derived address (sha256 of the normalised name) and keys its profile on the name', () => {
    const byName = scoreAddress(req('credit.sandbox.score.address.v1', { address: 'Vitalik.ETH' }), NOW);
    expect(byName.address).toBe(sandboxAddressOfName(NAME));
    expect(byName.address).toBe('0x45C0B8ACf5231e26B06e3529A979409D59e07f6E');
    expect(byName.score).toBe(sandboxProfile(NAME).score);
  });

  it('answers 404 address_not_found for an invalid single address', () => {
    for (const address of [INVALID, 'not an address', '0xZZ5801a7D398351b8bE11C439e05C5B3259aeC9B']) {
      expect(codeOf(() => scoreAddress(req('credit.sandbox.score.address.v1', { address }), NOW))).toBe('address_not_found');
    }
    expect(() => reportFull(req('credit.sandbox.report.full.v1', { address: INVALID }), NOW)).toThrow(
      'Address not found or invalid: 0x123',
    );
  });

  it('gives the same profile in a fresh process', () => {
    // the built generator in a plain node process (no jest, no source transform)
    const script = `process.stdout.write(JSON.stringify(require('./dist/generator/profile').sandboxProfile(${JSON.stringify(B)})))`;
    const out = execFileSync(process.execPath, ['-e', script], { cwd: `${__dirname}/..`, encoding: 'utf8' });
    expect(JSON.parse(out)).toEqual(JSON.parse(JSON.stringify(sandboxProfile(B))));
  });
});
