#!/usr/bin/env node
// `pnpm check`: the linter (`pnpm lint`: ESLint, then Prettier's check) and the type checker
// (`pnpm typecheck`: tsc over the root tsconfig.json) at the same time, one core each, so together
// they take about as long as the longer one alone. Each one's output is printed whole when it
// ends; the exit code is non-zero if either failed.
'use strict';
const { spawn } = require('node:child_process');

function run(script) {
  return new Promise((resolve) => {
    const started = Date.now();
    const child = spawn('pnpm', ['run', '--silent', script], { stdio: ['ignore', 'pipe', 'pipe'], env: process.env });
    const output = [];
    child.stdout.on('data', (chunk) => output.push(chunk));
    child.stderr.on('data', (chunk) => output.push(chunk));
    child.on('close', (code, signal) => {
      const seconds = ((Date.now() - started) / 1000).toFixed(0);
      process.stdout.write(`\n── pnpm ${script}: ${code === 0 ? 'passed' : `failed (${signal ?? code})`} in ${seconds} s ──\n`);
      process.stdout.write(Buffer.concat(output));
      resolve(code === 0);
    });
  });
}

Promise.all([run('lint'), run('typecheck')]).then((results) => {
  process.exit(results.every(Boolean) ? 0 : 1);
});
