// Every package, app and tool with its own jest.config.js is a project of the one test run.
const { existsSync, readdirSync } = require('node:fs');
const { join } = require('node:path');

const projects = ['packages', 'apps', 'tools'].flatMap((dir) =>
  readdirSync(join(__dirname, dir))
    .map((name) => join(__dirname, dir, name))
    .filter((path) => existsSync(join(path, 'jest.config.js'))),
);

// The slowest files first (scripts/slowest-first-sequencer.js): a fresh clone has no timings of its own.
module.exports = { projects, testTimeout: 60_000, testSequencer: require.resolve('./scripts/slowest-first-sequencer.js') };
