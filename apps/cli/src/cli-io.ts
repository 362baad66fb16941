/** Where a command writes: stdout carries only results (JSON), stderr carries notes and errors. */
export interface CliIo {
  out(text: string): void;
  err(text: string): void;
}

/** One JSON value on one line of stdout. */
export function printJson(io: CliIo, value: unknown): void {
  io.out(`${JSON.stringify(value)}\n`);
}

/** One line on stderr. */
export function note(io: CliIo, text: string): void {
  io.err(`${text}\n`);
}
