import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT } from './apps';

/**
 * A directory that looks like the repository to `pnpm start`, with a `.devnet/` of its own: the
 * start script and the devnet keep their state at "the repository root" (the directory above the
 * devnet package holding pnpm-workspace.yaml) and take no option for another place. So the root
 * files and scripts are copied, the devnet package gets a real directory with a copy of its
 * `dist/` (its other parts linked), and everything else is a symlink to the real checkout. A
 * developer's own `.devnet/` is never read or written.
 */
export interface RepoView {
  root: string;
  remove(): void;
}

export function createRepoView(): RepoView {
  const root = mkdtempSync(join(tmpdir(), 'readme-smoke-'));
  for (const file of ['package.json', 'pnpm-workspace.yaml', 'README.md']) cpSync(join(REPO_ROOT, file), join(root, file));
  cpSync(join(REPO_ROOT, 'scripts'), join(root, 'scripts'), { recursive: true });
  for (const entry of ['node_modules', 'apps']) symlinkSync(join(REPO_ROOT, entry), join(root, entry));
  mkdirSync(join(root, 'packages'));
  for (const pkg of readdirSync(join(REPO_ROOT, 'packages'))) {
    if (pkg !== 'devnet') symlinkSync(join(REPO_ROOT, 'packages', pkg), join(root, 'packages', pkg));
  }
  const devnet = join(root, 'packages', 'devnet');
  mkdirSync(devnet);
  cpSync(join(REPO_ROOT, 'packages', 'devnet', 'dist'), join(devnet, 'dist'), { recursive: true });
  for (const entry of readdirSync(join(REPO_ROOT, 'packages', 'devnet'))) {
    if (entry !== 'dist') symlinkSync(join(REPO_ROOT, 'packages', 'devnet', entry), join(devnet, entry));
  }
  return { root, remove: () => rmSync(root, { recursive: true, force: true }) };
}
