import { REDIS_URL, NATS_URL } from '../src/apps';
import { killAllChildren, spawnChild, type Child } from '../src/child-process';
import { createKeyedDatabase, type KeyedDatabase } from '../src/keyed-database';
import { freePort, portIsOpen, waitUntil } from '../src/ports';
import { readReadme } from '../src/readme';
import { exampleProblem, runBash, runCurlExample, withoutTimestamps, type CurlResult } from '../src/readme-run';
import { createRepoView, type RepoView } from '../src/repo-view';
import { deleteKeysWithPrefix } from '@credit/test-world/redis-cleanup';
import { uniquePrefix } from '@credit/testing/unique-prefix';

/**
 * The README as a new user meets it: the stack started with the Quick start's own command, a key
 * made with the README's CLI line, every `curl` example run through bash with the README's
 * variables, each checked against what the README documents (200 and the route's reply shape).
 * Then Ctrl-C (SIGINT to the process group), the same command again, every example again: the
 * same bodies, timestamps aside. Private database, port, subject and queue prefixes, devnet state.
 */
jest.setTimeout(900_000);

const README = readReadme();
const READY_LINE = /stack ready: production scores answer/;

/** The first of 100 consecutive free ports (the probe ports `pnpm start` takes from HEALTH_PORT_BASE). */
async function freePortBlock(): Promise<number> {
  for (;;) {
    const base = 20_000 + Math.floor(Math.random() * 30_000);
    const open = await Promise.all(Array.from({ length: 100 }, (_, i) => portIsOpen(base + i)));
    if (!open.some(Boolean)) return base;
  }
}
let view: RepoView;
let database: KeyedDatabase;
let stack: Child | undefined;
let port: number;
let env: NodeJS.ProcessEnv;
const prefix = uniquePrefix('readme');
let key: string;

beforeAll(async () => {
  view = createRepoView();
  database = await createKeyedDatabase();
  port = await freePort();
  // the stack's own settings; CHAINS / CHAINS_FILE unset, so the start brings up the devnet
  const { CHAINS: _chains, CHAINS_FILE: _chainsFile, ...inherited } = process.env;
  env = {
    ...inherited,
    DATABASE_URL: database.url,
    NATS_URL,
    REDIS_URL,
    PORT: String(port),
    // the probe ports of its apps, away from anything else on the machine
    HEALTH_PORT_BASE: String(await freePortBlock()),
    NATS_SUBJECT_PREFIX: prefix,
    QUEUE_PREFIX: `${prefix}-queues`,
  };
});

afterAll(async () => {
  await stack?.stop('SIGINT', 20_000);
  await killAllChildren();
  await database?.drop();
  for (const p of [prefix, `${prefix}-queues`]) await deleteKeysWithPrefix(REDIS_URL, p).catch(() => undefined);
  view?.remove();
});

async function startStack(): Promise<void> {
  stack = spawnChild('pnpm start', 'bash', ['-c', README.startCommand], { cwd: view.root, env });
  await waitUntil(
    'the gateway of `pnpm start`',
    async () => {
      if (stack!.exit)
        throw new Error(`\`${README.startCommand}\` exited (${JSON.stringify(stack!.exit)}):\n${stack!.output().slice(-4000)}`);
      return (await fetch(`http://127.0.0.1:${port}/health`)).ok;
    },
    240_000,
    500,
  );
}

/**
 * Every example once, after `pnpm start` prints that the stack is ready (the index caught up on
 * every chain, every replica's `/ready` 200): the first production score after that line is 200,
 * never a 503 (issue 35).
 */
async function runExamples(): Promise<Map<string, CurlResult>> {
  const setup = { variables: README.variables.filter((v) => !/^export KEY=/.test(v)), port, cwd: view.root, env: { ...env, KEY: key } };
  const firstProduction = README.curls.find((c) => c.includes('/api/v2/score/'))!;
  await waitUntil('`stack ready` from `pnpm start`', async () => READY_LINE.test(stack!.output()), 300_000, 500);
  expect((await runCurlExample(firstProduction, setup)).status).toBe(200);
  const results = new Map<string, CurlResult>();
  for (const example of README.curls) results.set(example, await runCurlExample(example, setup));
  return results;
}

function expectAsDocumented(results: Map<string, CurlResult>): void {
  const problems = [...results]
    .map(([example, result]) => ({ example, problem: exampleProblem(example, result) }))
    .filter((p) => p.problem);
  expect(problems).toEqual([]);
}

it('the README parses into a start command, a key line and curl examples', () => {
  expect(README.startCommand).toBe('pnpm start');
  expect(README.curls.length).toBeGreaterThanOrEqual(15);
  console.log(`README: ${README.curls.length} curl examples, variables ${README.variables.map((v) => v.split('=')[0]).join(', ')}`);
});

let firstRun: Map<string, CurlResult>;

it('`pnpm start`, a key from the README CLI line, and every curl example answers as documented', async () => {
  await startStack();
  const made = await runBash(README.keyCommand, { cwd: view.root, env, timeoutMs: 60_000 });
  const line = made.stdout.trim().split('\n').pop() ?? '';
  expect({ line, stderr: made.stderr.slice(-500) }).toEqual({ line: expect.stringMatching(README.keyOutput), stderr: expect.any(String) });
  key = (JSON.parse(line) as { key: string }).key;
  firstRun = await runExamples();
  expectAsDocumented(firstRun);
});

it('Ctrl-C, `pnpm start` again: every example answers again, with the same bodies (timestamps aside)', async () => {
  expect(firstRun).toBeDefined();
  await stack!.stop('SIGINT', 20_000);
  expect(stack!.exit).toBeDefined();
  // the second day reads every wallet afresh
  await deleteKeysWithPrefix(REDIS_URL, `${prefix}:wallet`);
  await startStack();
  const secondRun = await runExamples();
  expectAsDocumented(secondRun);
  const differences = [...secondRun]
    .filter(
      ([example, result]) =>
        JSON.stringify(withoutTimestamps(result.body)) !== JSON.stringify(withoutTimestamps(firstRun.get(example)!.body)),
    )
    .map(([example, result]) => ({ example, first: firstRun.get(example)!.body, second: result.body }));
  expect(differences).toEqual([]);
});
