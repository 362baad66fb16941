import { readFileSync, writeFileSync } from 'node:fs';

/** The value after `--name` on the command line; undefined when the flag is absent. */
export function option(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  if (i < 0) return undefined;
  const value = process.argv[i + 1];
  if (value === undefined || value.startsWith('--')) throw new Error(`${name} needs a value`);
  return value;
}

/** A logger that prefixes each line with the seconds since it was made (stderr). */
export function elapsedLog(): (message: string) => void {
  const started = Date.now();
  return (message) => console.error(`[${((Date.now() - started) / 1000).toFixed(1)}s] ${message}`);
}

/** Rewrites `file` through `edit` (a generated section of a markdown card). */
export function rewrite(file: string, edit: (text: string) => string): void {
  writeFileSync(file, edit(readFileSync(file, 'utf8')));
}

/** Runs a command-line main: exit 0 when it resolves, 1 with the error printed when it throws. */
export function runMain(main: () => Promise<void>): void {
  main().then(
    () => process.exit(0),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}
