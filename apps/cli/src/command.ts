import type { Db } from '@credit/db/prisma-client';
import type { CliConfig } from './cli-config';
import type { CliIo } from './cli-io';

/** What a command gets: its output streams and, made on first use, config and database. */
export interface CommandContext {
  io: CliIo;
  config(): CliConfig;
  db(): Db;
}

export interface Command {
  /** `keys:create` */
  name: string;
  /** Flags as shown in the help. */
  usage: string;
  summary: string;
  /** Runs with the arguments after the command name; resolves to the exit code. */
  run(args: string[], context: CommandContext): Promise<number>;
}
