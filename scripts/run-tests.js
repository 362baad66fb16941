#!/usr/bin/env node
// Runs every test of the monorepo in one jest run against the real services (Postgres, Redis,
// NATS), then prints the closing line CI reads: `N passed, N failed`.
'use strict';
const { spawnSync } = require('node:child_process');
const { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } = require('node:fs');
const { join } = require('node:path');
const { tmpdir } = require('node:os');
const { checkServices } = require('./services');
const { ensureChromium } = require('./ensure-chromium');

/** The fault suite's README smoke test, and every other file of the fault suite. */
const README_SMOKE = 'packages/fault-suite/test/readme-smoke\\.spec\\.ts$';
const FAULTS_BUT_SMOKE = 'packages/fault-suite/test/(?!readme-smoke\\.spec\\.ts$)';

async function main() {
  const missing = await checkServices();
  if (missing.length > 0) {
    console.error(`These services are not reachable: ${missing.join(', ')}.`);
    console.error('Start them (see README "Requirements") and run the tests again.');
    console.log('0 passed, 1 failed');
    process.exit(1);
  }
  const given = process.argv.slice(2).filter((a, i) => !(i === 0 && a === '--'));
  // The dashboard's browser test needs Debian's Chromium: installed here if missing (as root).
  ensureChromium();
  // The whole suite (CI, no arguments): every project on two workers (most of their time is
  // waiting on chains, services and timers), then the fault suite alone on one, since it kills,
  // stops and loads processes and measures how fast the rest answers. Its README smoke test is the
  // exception: it starts `pnpm start` on private ports, prefixes and state, kills nothing it did
  // not start and measures nothing, so it runs in the first run, beside the rest.
  const runs =
    given.length > 0
      ? [given]
      : [
          ['--maxWorkers=2', '--selectProjects', ...projectNames(), '--testPathIgnorePatterns', '/node_modules/', FAULTS_BUT_SMOKE],
          ['--maxWorkers=1', '--selectProjects', 'fault-suite', '--testPathIgnorePatterns', '/node_modules/', README_SMOKE],
        ];
  let passed = 0;
  let failed = 0;
  for (const extra of runs) {
    const result = runJest(extra);
    passed += result.passed;
    failed += result.failed;
  }
  console.log(`${passed} passed, ${failed} failed`);
  process.exit(failed > 0 ? 1 : 0);
}

/** One jest run; its passed and failed counts (a run that could not report counts as one failure). */
function runJest(extra) {
  const out = join(mkdtempSync(join(tmpdir(), 'credit-tests-')), 'results.json');
  const jest = require.resolve('jest/bin/jest');
  const args = [jest, '--config', join(__dirname, '..', 'jest.config.js'), '--json', '--outputFile', out, ...extra];
  const result = spawnSync(process.execPath, args, {
    stdio: 'inherit',
    env: { ...process.env, TZ: 'UTC', NODE_ENV: 'test' },
  });
  let passed = 0;
  let failed = 0;
  try {
    const report = JSON.parse(readFileSync(out, 'utf8'));
    passed = report.numPassedTests;
    failed = report.numFailedTests + report.numRuntimeErrorTestSuites;
    printSlowest(report);
    rmSync(out, { force: true });
  } catch {
    failed = Math.max(failed, 1);
  }
  if (result.status !== 0 && failed === 0) failed = 1;
  return { passed, failed };
}

/** The run's slowest suites and its wall time, to keep CI's duration in view. */
function printSlowest(report, count = 12) {
  if (report.testResults.length === 0) return;
  const root = join(__dirname, '..') + '/';
  const suites = report.testResults
    .map((r) => ({ name: r.name.replace(root, ''), seconds: (r.endTime - r.startTime) / 1000 }))
    .sort((a, b) => b.seconds - a.seconds)
    .slice(0, count);
  const wall = (Math.max(...report.testResults.map((r) => r.endTime)) - report.startTime) / 1000;
  console.log(`\nwall ${wall.toFixed(0)} s over ${report.numTotalTestSuites} suites; the slowest:`);
  for (const s of suites) console.log(`  ${s.seconds.toFixed(1).padStart(7)} s  ${s.name}`);
}

/** The jest projects' display names: every package, app and tool with a jest.config.js. */
function projectNames() {
  return ['packages', 'apps', 'tools'].flatMap((dir) =>
    readdirSync(join(__dirname, '..', dir))
      .filter((name) => existsSync(join(__dirname, '..', dir, name, 'jest.config.js')))
      .map((name) => displayNameOf(join(__dirname, '..', dir, name))),
  );
}

function displayNameOf(path) {
  return require(join(path, 'jest.config.js')).displayName;
}

main().catch((error) => {
  console.error(error);
  console.log('0 passed, 1 failed');
  process.exit(1);
});
