import type { Db } from '@credit/db/prisma-client';
import type { Redis } from 'ioredis';
import type { CliConfig } from './cli-config';
import type { CliIo } from './cli-io';

/** What a command gets: its output streams and, made on first use, config, database and Redis. */
export interface CommandContext {
  io: CliIo;
  config(): CliConfig;
  db(): Db;
  /** Connects on the first call; rejects with RedisUnavailableError when Redis cannot be reached. */
  redis(): Promise<Redis>;
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
