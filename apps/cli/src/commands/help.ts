import type { Command } from '../command';

/** The usage text listing every command. */
export function renderHelp(commands: readonly Command[]): string {
  const width = Math.max(...commands.map((command) => command.name.length));
  const lines = [
    'Operator CLI for the credit scoring platform: accounts and API keys.',
    '',
    'Usage: node apps/cli/dist/main.js <command> [flags]   (or: pnpm -s cli <command> [flags])',
    '',
    'Commands:',
    ...commands.map((command) => `  ${command.name.padEnd(width)}  ${command.summary}`),
    `  ${'help'.padEnd(width)}  show this text`,
    '',
    'Flags:',
    ...commands.map((command) => `  ${command.usage}`),
    '',
    'Results are JSON on stdout; notes and errors go to stderr.',
    'Exit codes: 0 done, 1 not found or failed, 2 bad input or configuration, 3 saved but gateways not notified over NATS.',
    'Environment: DATABASE_URL, NATS_URL, NATS_SUBJECT_PREFIX, REDIS_URL (accounts:show reads the CU counters there).',
    '',
  ];
  return lines.join('\n');
}

export function renderCommandHelp(command: Command): string {
  return `Usage: ${command.usage}\n${command.summary}\n`;
}
