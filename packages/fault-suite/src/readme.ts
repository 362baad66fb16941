import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from './apps';

/**
 * What a new user copies from README.md: the Quick start's start command, the CLI line that makes
 * a key (and the output it shows), the shell variables the API examples use, and every `curl`
 * example (a line ending in `\` continues on the next).
 */
export interface ReadmeExamples {
  /** The last part of the Quick start line that ends in `pnpm start` (install and build are CI's). */
  startCommand: string;
  keyCommand: string;
  /** The output shown under the key command, as a pattern (`…` matches anything). */
  keyOutput: RegExp;
  /** The lines of the "Calling the API" block that set shell variables, in order. */
  variables: string[];
  curls: string[];
}

function codeBlocks(markdown: string): string[] {
  return [...markdown.matchAll(/```bash\n([\s\S]*?)```/g)].map((m) => m[1]!);
}

/** Lines with `\` continuations joined. */
function logicalLines(block: string): string[] {
  return block
    .replace(/\\\n\s*/g, '')
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
}

export function readReadme(path = join(REPO_ROOT, 'README.md')): ReadmeExamples {
  const lines = codeBlocks(readFileSync(path, 'utf8')).flatMap(logicalLines);
  const start = lines.find((l) => /&& pnpm start$/.test(l));
  if (!start) throw new Error('README.md: no Quick start line ending in `pnpm start`');
  const keyAt = lines.findIndex((l) => l.startsWith('pnpm cli keys:create'));
  if (keyAt < 0) throw new Error('README.md: no `pnpm cli keys:create` line');
  const shown = lines[keyAt + 1]?.replace(/^#\s*/, '') ?? '';
  const keyOutput = new RegExp(
    `^${shown
      .split('…')
      .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
      .join('[^"]+')}$`,
  );
  return {
    startCommand: start.split('&&').pop()!.trim(),
    keyCommand: lines[keyAt]!,
    keyOutput,
    variables: lines.filter((l) => /^(export\s+)?[A-Z][A-Z0-9_]*=/.test(l)),
    curls: lines.filter((l) => l.startsWith('curl ')),
  };
}
