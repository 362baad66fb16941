import { z } from 'zod';

/**
 * Reads an app's environment into a typed object once, at boot. A bad or missing variable stops
 * the app with one message naming every problem, before it opens a port or a connection.
 */
export function loadConfig<S extends z.ZodType>(app: string, schema: S, env: NodeJS.ProcessEnv = process.env): z.output<S> {
  const result = schema.safeParse(env);
  if (result.success) return result.data;
  const problems = result.error.issues.map((issue) => `  ${issue.path.join('.') || '(env)'}: ${issue.message}`).join('\n');
  throw new ConfigError(`${app}: invalid configuration\n${problems}`);
}

export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}
