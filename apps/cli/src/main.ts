#!/usr/bin/env node
import { createLogger, standardError } from '@credit/telemetry/logger';
import { runCli } from './run-cli';

/** `pnpm -s cli <command>`: argv in, exit code out; everything else is in run-cli. */
runCli(process.argv.slice(2), process.env, {
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
})
  .then((code) => {
    process.exitCode = code;
  })
  .catch((error: unknown) => {
    // What the operator asked for goes to stdout / stderr as text; a failure nobody expected is a log line.
    createLogger('cli', { level: 'log', destination: standardError() }).error({ err: error }, 'unexpected error');
    process.exitCode = 1;
  });
