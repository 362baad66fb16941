import { ConfigError } from '@credit/config/load-config';
import { redactUrl } from '@credit/config/redact-url';
import { classifyDbError } from '@credit/db/db-errors';
import { createPrismaClient, type Db } from '@credit/db/prisma-client';
import { loadCliConfig, type CliConfig } from './cli-config';
import { EXIT_FAILURE, EXIT_OK, EXIT_USAGE, NotFoundError, RedisUnavailableError, UsageError } from './cli-errors';
import { note, type CliIo } from './cli-io';
import type { Command, CommandContext } from './command';
import { accountsDisable, accountsEnable } from './commands/accounts-set-active';
import { accountsSetPlan } from './commands/accounts-set-plan';
import { accountsShow } from './commands/accounts-show';
import { renderCommandHelp, renderHelp } from './commands/help';
import { indexReset } from './commands/index-reset';
import { keysCreate } from './commands/keys-create';
import { keysList } from './commands/keys-list';
import { keysRevoke } from './commands/keys-revoke';
import { paymentsList } from './commands/payments-list';
import { LazyRedis } from './redis-connection';

export const COMMANDS: readonly Command[] = [
  keysCreate,
  keysList,
  keysRevoke,
  accountsShow,
  accountsSetPlan,
  accountsDisable,
  accountsEnable,
  paymentsList,
  indexReset,
];

const HELP_WORDS = new Set(['help', '--help', '-h']);

/**
 * Runs one CLI invocation: `argv` without node and the script, `env` for the configuration.
 * Resolves to the exit code; never rejects. Opens Postgres and Redis only for commands that need
 * them and closes every connection before resolving.
 */
export async function runCli(argv: readonly string[], env: NodeJS.ProcessEnv, io: CliIo): Promise<number> {
  const [name, ...args] = argv;
  if (name === undefined) {
    io.err(renderHelp(COMMANDS));
    return EXIT_USAGE;
  }
  if (HELP_WORDS.has(name)) {
    io.out(renderHelp(COMMANDS));
    return EXIT_OK;
  }
  const command = COMMANDS.find((candidate) => candidate.name === name);
  if (command === undefined) {
    note(io, `unknown command "${name}". Commands: ${COMMANDS.map((c) => c.name).join(', ')}, help`);
    return EXIT_USAGE;
  }
  if (args.some((arg) => arg === '--help' || arg === '-h')) {
    io.out(renderCommandHelp(command));
    return EXIT_OK;
  }

  let config: CliConfig | undefined;
  let db: Db | undefined;
  const redis = new LazyRedis(() => context.config().REDIS_URL);
  const context: CommandContext = {
    io,
    config: () => (config ??= loadCliConfig(env)),
    db: () => (db ??= createPrismaClient(context.config().DATABASE_URL, { maxConnections: 2, applicationName: 'credit-cli' })),
    redis: () => redis.get(),
  };
  try {
    return await command.run(args, context);
  } catch (error) {
    return reportFailure(error, command, config, io);
  } finally {
    await Promise.all([db?.$disconnect().catch(() => undefined), redis.close()]);
  }
}

function reportFailure(error: unknown, command: Command, config: CliConfig | undefined, io: CliIo): number {
  if (error instanceof UsageError) {
    note(io, error.message);
    note(io, `usage: ${command.usage}`);
    return EXIT_USAGE;
  }
  if (error instanceof ConfigError) {
    note(io, error.message);
    return EXIT_USAGE;
  }
  if (error instanceof NotFoundError) {
    note(io, error.message);
    return EXIT_FAILURE;
  }
  if (error instanceof RedisUnavailableError) {
    note(io, `${command.name}: cannot reach Redis at ${config ? redactUrl(config.REDIS_URL) : 'REDIS_URL'}: ${error.message}`);
    note(io, 'Is Redis running, and is REDIS_URL right?');
    return EXIT_FAILURE;
  }
  const target = config ? describeDatabase(config.DATABASE_URL) : 'the database';
  switch (classifyDbError(error)) {
    case 'schema_missing':
      note(io, `${command.name}: the database ${target} has no schema yet (missing database or tables).`);
      note(io, 'Run the migrations first: pnpm db:migrate (or start the stack with pnpm start).');
      return EXIT_FAILURE;
    case 'unreachable':
    case 'timed_out':
      note(io, `${command.name}: cannot reach Postgres at ${target}: ${lastLine(error)}`);
      note(io, 'Is Postgres running, and is DATABASE_URL right?');
      return EXIT_FAILURE;
    default:
      note(io, `${command.name} failed: ${lastLine(error)}`);
      return EXIT_FAILURE;
  }
}

/** host/database of a URL, without credentials. */
function describeDatabase(databaseUrl: string): string {
  try {
    const url = new URL(databaseUrl);
    return `${url.host}${url.pathname}`;
  } catch {
    return 'the database';
  }
}

/** The last non-empty line of an error message (Prisma puts the cause there, after the call site). */
function lastLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const lines = message
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');
  return lines[lines.length - 1] ?? message;
}
