import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadArtifacts, readSources, sourceHash } from '../src/compile';

describe('compile (solc-js, cached by source hash)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'devnet-compile-'));
  const artifactPath = join(dir, 'out', 'contracts.json');
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('compiles once, then reads the artifact while the sources are unchanged', () => {
    writeFileSync(
      join(dir, 'Answer.sol'),
      '// SPDX-License-Identifier: MIT\npragma solidity ^0.8.20;\ncontract Answer { function get() external pure returns (uint256) { return 42; } }\n',
    );
    const first = loadArtifacts({ sourcesDir: dir, artifactPath });
    expect(Object.keys(first.contracts)).toEqual(['Answer']);
    expect(first.contracts.Answer!.deployedBytecode).toMatch(/^0x[0-9a-f]+$/);
    expect(first.compilerVersion).toMatch(/^0\.8\.37\+/);
    const written = statSync(artifactPath).mtimeMs;
    expect(JSON.parse(readFileSync(artifactPath, 'utf8')).sourceHash).toBe(sourceHash(readSources(dir)));

    const second = loadArtifacts({ sourcesDir: dir, artifactPath });
    expect(second).toEqual(first);
    expect(statSync(artifactPath).mtimeMs).toBe(written);
  }, 30_000);

  it('recompiles when a source changes, and reports compiler errors', () => {
    writeFileSync(
      join(dir, 'Answer.sol'),
      '// SPDX-License-Identifier: MIT\npragma solidity ^0.8.20;\ncontract Answer { function get() external pure returns (uint256) { return 43; } }\n',
    );
    const changed = loadArtifacts({ sourcesDir: dir, artifactPath });
    expect(JSON.parse(readFileSync(artifactPath, 'utf8')).sourceHash).toBe(changed.sourceHash);
    writeFileSync(join(dir, 'Broken.sol'), 'pragma solidity ^0.8.20; contract Broken { function f() external { undefinedThing(); } }');
    expect(() => loadArtifacts({ sourcesDir: dir, artifactPath })).toThrow(/solc failed[\s\S]*undefinedThing/);
  }, 30_000);
});
