import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** The code files of a directory tree (compiled `.js`, or `.ts` sources under ts-jest), sorted by path. */
function codeFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && /\.(js|ts)$/.test(e.name) && !e.name.endsWith('.d.ts'))
    .map((e) => join(e.parentPath, e.name))
    .sort();
}

/**
 * What a cached verdict is keyed by (`ScoreCache`): a hash of the code that turns a wallet view
 * into a score, this process's score model package (the table and the scorecard) and the
 * scoring service's feature extraction, as loaded. A deploy that changes either reads every
 * cached view's score afresh; replicas of one build share their verdicts.
 */
export function modelFingerprint(): string {
  const model = dirname(require.resolve('@credit/score-model/andromeda/scorecard'));
  const hash = createHash('sha256');
  for (const file of [...codeFiles(dirname(model)), ...codeFiles(join(__dirname, '..', 'features'))]) {
    hash.update(file.slice(file.lastIndexOf('/', file.lastIndexOf('/') - 1))).update(readFileSync(file));
  }
  return hash.digest('hex').slice(0, 16);
}
