import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/**
 * No app depends on another app: shared code lives in packages, and the tests that need several
 * apps at once live in packages of their own (packages/e2e, packages/fault-suite).
 */
const ROOT = join(__dirname, '..', '..', '..');
const APPS = readdirSync(join(ROOT, 'apps'));

describe('workspace boundaries', () => {
  it.each(APPS)('apps/%s names no other app among its dependencies', (app) => {
    const manifest = JSON.parse(readFileSync(join(ROOT, 'apps', app, 'package.json'), 'utf8')) as Record<
      string,
      Record<string, string> | undefined
    >;
    const names = Object.keys({ ...manifest.dependencies, ...manifest.devDependencies });
    const appPackages = APPS.map((a) => `@credit/${a}`);
    expect(names.filter((n) => appPackages.includes(n))).toEqual([]);
  });
});
