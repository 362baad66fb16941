#!/usr/bin/env node
// Starts the identity providers' stubs: `node packages/provider-stubs/dist/main.js <fixtures.json>`
// (or `--devnet <state.json>`: the devnet cast's fixtures, `devnet-fixtures.ts`), on the port in
// PROVIDER_STUBS_PORT (default 0: a free one). Prints one JSON line
// `{"ready": true, "urls": {...}, "apiKey": "...", "scorerId": "..."}` and runs until SIGINT/SIGTERM.
import { readFileSync } from 'node:fs';
import { devnetFixtures } from './devnet-fixtures';
import { StubFixtures } from './fixtures';
import { startProviderStubs, type ProviderStubs } from './provider-stubs';

/** Reads the fixtures file, starts the stubs and writes the ready line. Throws on a bad file or port. */
export async function runProviderStubs(args: string[], env: NodeJS.ProcessEnv, write: (line: string) => void): Promise<ProviderStubs> {
  const file = args[0];
  if (!file) throw new Error('usage: provider-stubs <fixtures.json>   (port: PROVIDER_STUBS_PORT, default 0)');
  const port = Number(env.PROVIDER_STUBS_PORT ?? '0');
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`PROVIDER_STUBS_PORT is not a port: ${env.PROVIDER_STUBS_PORT}`);
  const content =
    file === '--devnet'
      ? devnetFixtures(
          (JSON.parse(readFileSync(args[1] ?? '.devnet/state.json', 'utf8')) as { cast: Record<string, { address: string }> }).cast,
        )
      : (JSON.parse(readFileSync(file, 'utf8')) as unknown);
  const parsed = StubFixtures.safeParse(content);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ');
    throw new Error(`${file} is not a fixtures file: ${issues}`);
  }
  const stubs = await startProviderStubs(parsed.data, { port });
  write(JSON.stringify({ ready: true, urls: stubs.urls, apiKey: stubs.apiKey, scorerId: stubs.scorerId }));
  return stubs;
}

if (require.main === module) {
  runProviderStubs(process.argv.slice(2), process.env, (line) => process.stdout.write(`${line}\n`))
    .then((stubs) => {
      const stop = () => {
        stubs.close().then(
          () => process.exit(0),
          () => process.exit(1),
        );
      };
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
    })
    .catch((error: unknown) => {
      console.error((error as Error).message);
      process.exit(1);
    });
}
