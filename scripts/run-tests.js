#!/usr/bin/env node
// Runs every test of the monorepo in one jest run against the real services (Postgres, Redis,
// NATS), then prints the closing line CI reads: `N passed, N failed`.
'use strict';
const { spawnSync } = require('node:child_process');
const { readFileSync, rmSync, mkdtempSync } = require('node:fs');
const { join } = require('node:path');
const { tmpdir } = require('node:os');
const { checkServices } = require('./services');

async function main() {
  const missing = await checkServices();
  if (missing.length > 0) {
    console.error(`These services are not reachable: ${missing.join(', ')}.`);
    console.error('Start them (see README "Requirements") and run the tests again.');
    console.log('0 passed, 1 failed');
    process.exit(1);
  }
  const out = join(mkdtempSync(join(tmpdir(), 'credit-tests-')), 'results.json');
  const jest = require.resolve('jest/bin/jest');
  const args = [
    jest,
    '--config',
    join(__dirname, '..', 'jest.config.js'),
    '--json',
    '--outputFile',
    out,
    ...process.argv.slice(2).filter((a, i) => !(i === 0 && a === '--')),
  ];
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
    rmSync(out, { force: true });
  } catch {
    failed = Math.max(failed, 1);
  }
  if (result.status !== 0 && failed === 0) failed = 1;
  console.log(`${passed} passed, ${failed} failed`);
  process.exit(failed > 0 || result.status !== 0 ? 1 : 0);
}

main().catch((error) => {
  console.error(error);
  console.log('0 passed, 1 failed');
  process.exit(1);
});
