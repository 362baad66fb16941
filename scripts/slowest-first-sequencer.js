// The order jest starts test files in: the slowest first, so no long suite starts last and keeps
// one worker busy alone at the end of the run. Jest orders by the durations it cached on earlier
// runs of this checkout; a fresh clone (CI) has none, and jest then falls back to file size, which
// says little (the slowest suite, model-auc, is one of the shortest files). Files jest has no time
// for take theirs from `suite-seconds.json` (measured in a CI run, `node scripts/run-tests.js`
// prints each run's slowest; files under 10 s are not listed), the rest follow in jest's order.
'use strict';
const { dirname, join, relative } = require('node:path');

const jestDir = dirname(require.resolve('jest/package.json'));
const coreDir = dirname(require.resolve('@jest/core/package.json', { paths: [jestDir] }));
const DefaultSequencer = require(require.resolve('@jest/test-sequencer', { paths: [coreDir] })).default;
const SECONDS = require('./suite-seconds.json');
const ROOT = join(__dirname, '..');

class SlowestFirstSequencer extends DefaultSequencer {
  sort(tests) {
    const ordered = super.sort(tests);
    const expected = (test) => test.duration ?? (SECONDS[relative(ROOT, test.path)] ?? 0) * 1000;
    return ordered
      .map((test, index) => ({ test, index, ms: expected(test) }))
      .sort((a, b) => b.ms - a.ms || a.index - b.index)
      .map(({ test }) => test);
  }
}

module.exports = SlowestFirstSequencer;
