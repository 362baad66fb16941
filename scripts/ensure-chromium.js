#!/usr/bin/env node
'use strict';
// The dashboard's browser test drives Debian's Chromium with playwright-core (a browser download
// is not possible here). This makes sure it is installed: already there (CHROMIUM_PATH, or
// /usr/bin/chromium), or installed with apt-get when running as root. Otherwise it says how, and
// the browser test fails saying the same.
const { execFileSync } = require('node:child_process');
const { existsSync } = require('node:fs');

function chromiumPath(env = process.env) {
  return env.CHROMIUM_PATH || '/usr/bin/chromium';
}

function ensureChromium(env = process.env) {
  const path = chromiumPath(env);
  if (existsSync(path)) return path;
  if (typeof process.getuid !== 'function' || process.getuid() !== 0) {
    console.error(`Chromium is not at ${path}: install it (as root: apt-get install -y chromium), or set CHROMIUM_PATH.`);
    return undefined;
  }
  console.log(`Installing Chromium (apt-get install chromium) for the dashboard's browser test…`);
  const apt = (args) => execFileSync('apt-get', args, { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
  try {
    try {
      apt(['install', '-y', '--no-install-recommends', 'chromium']);
    } catch {
      apt(['update']);
      apt(['install', '-y', '--no-install-recommends', 'chromium']);
    }
  } catch (error) {
    console.error(`Could not install Chromium: ${error.message}`);
  }
  return existsSync(path) ? path : undefined;
}

module.exports = { ensureChromium, chromiumPath };

if (require.main === module) process.exit(ensureChromium() ? 0 : 1);
