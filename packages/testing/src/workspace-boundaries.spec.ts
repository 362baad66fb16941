import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/**
 * No app depends on another app, not even through a package: shared code lives in packages, the
 * tests that need several apps at once live in packages of their own (packages/e2e,
 * packages/fault-suite), and the model lab is a tool (tools/model-lab). Test harnesses such as
 * @credit/test-world start other apps, so an app may name them only among its devDependencies,
 * and its production code may import only what its dependencies name.
 */
const ROOT = join(__dirname, '..', '..', '..');
const WORKSPACE_DIRS = ['apps', 'packages', 'tools'];

interface Manifest {
  name: string;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
}

function manifestOf(dir: string): Manifest {
  return JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as Manifest;
}

const APPS = readdirSync(join(ROOT, 'apps'));
const APP_PACKAGES = new Set(APPS.map((app) => manifestOf(join(ROOT, 'apps', app)).name));

/** Every workspace package's manifest, by package name. */
const WORKSPACE = new Map<string, Manifest>(
  WORKSPACE_DIRS.flatMap((dir) =>
    readdirSync(join(ROOT, dir), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .flatMap((entry) => {
        try {
          const manifest = manifestOf(join(ROOT, dir, entry.name));
          return [[manifest.name, manifest] as const];
        } catch {
          return [];
        }
      }),
  ),
);

/** The workspace packages `name` needs at run time, as `a → b → c` paths from it (production `dependencies` only). */
function productionPaths(name: string): string[][] {
  const paths: string[][] = [];
  const seen = new Set<string>([name]);
  const queue: string[][] = [[name]];
  while (queue.length > 0) {
    const path = queue.shift()!;
    const manifest = WORKSPACE.get(path[path.length - 1]!);
    for (const dep of Object.keys(manifest?.dependencies ?? {})) {
      if (!WORKSPACE.has(dep) || seen.has(dep)) continue;
      seen.add(dep);
      paths.push([...path, dep]);
      queue.push([...path, dep]);
    }
  }
  return paths;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'generated' ? [] : sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts') ? [path] : [];
  });
}

/** The workspace packages the files of `dir` import (`@credit/x/...` → `@credit/x`). */
function importedWorkspacePackages(dir: string): string[] {
  const names = new Set<string>();
  for (const file of sourceFiles(dir)) {
    for (const match of readFileSync(file, 'utf8').matchAll(/(?:from\s+|import\s*\(\s*|require\s*\(\s*)'(@credit\/[^/']+)/g)) {
      names.add(match[1]!);
    }
  }
  return [...names].sort();
}

describe('workspace boundaries', () => {
  it.each(APPS)('apps/%s reaches no other app through its production dependencies', (app) => {
    const name = manifestOf(join(ROOT, 'apps', app)).name;
    const toApps = productionPaths(name)
      .filter((path) => APP_PACKAGES.has(path[path.length - 1]!))
      .map((path) => path.join(' → '));
    expect(toApps).toEqual([]);
  });

  it.each(APPS)('apps/%s names no other app among its devDependencies', (app) => {
    const manifest = manifestOf(join(ROOT, 'apps', app));
    expect(Object.keys(manifest.devDependencies ?? {}).filter((n) => APP_PACKAGES.has(n))).toEqual([]);
  });

  it.each(APPS)('apps/%s production code imports only workspace packages its dependencies name', (app) => {
    const manifest = manifestOf(join(ROOT, 'apps', app));
    const declared = new Set([manifest.name, ...Object.keys(manifest.dependencies ?? {})]);
    const undeclared = importedWorkspacePackages(join(ROOT, 'apps', app, 'src')).filter((n) => !declared.has(n));
    expect(undeclared).toEqual([]);
  });

  it('follows production dependencies through packages, not devDependencies', () => {
    // The path the model lab used to open when it lived in apps/scoring.
    expect(productionPaths('@credit/test-world').map((path) => path.join(' → '))).toContain('@credit/test-world → @credit/identity');
    expect(productionPaths('@credit/scoring').some((path) => path.includes('@credit/test-world'))).toBe(false);
    expect(productionPaths('@credit/model-lab').some((path) => path.includes('@credit/identity'))).toBe(true);
  });
});
