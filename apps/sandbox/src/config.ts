import { z } from 'zod';
import { loadConfig } from '@credit/config/load-config';
import { healthEnv, logEnv, natsEnv, serviceLoadEnv } from '@credit/config/fragments';

export const SandboxEnv = z.object({ ...natsEnv, ...healthEnv, ...serviceLoadEnv, ...logEnv });
export type SandboxConfig = z.output<typeof SandboxEnv>;

export function sandboxConfig(env: NodeJS.ProcessEnv = process.env): SandboxConfig {
  return loadConfig('sandbox', SandboxEnv, env);
}
