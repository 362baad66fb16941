/** JSON lines on stdout / stderr; tests pass `silentLogger`. */
export interface Logger {
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

const line = (level: string, message: string, fields?: Record<string, unknown>) =>
  JSON.stringify({ time: new Date().toISOString(), level, service: 'indexer', message, ...fields }, (_, v: unknown) =>
    typeof v === 'bigint' ? v.toString() : v,
  );

export const jsonLogger: Logger = {
  info: (message, fields) => process.stdout.write(`${line('info', message, fields)}\n`),
  warn: (message, fields) => process.stderr.write(`${line('warn', message, fields)}\n`),
  error: (message, fields) => process.stderr.write(`${line('error', message, fields)}\n`),
};

export const silentLogger: Logger = { info: () => undefined, warn: () => undefined, error: () => undefined };
