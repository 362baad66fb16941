'use strict';
/**
 * The images' health probe (node:20-bookworm-slim has neither curl nor wget):
 *
 *   node /usr/local/lib/credit/healthcheck.js [url]
 *
 * Without a URL (HEALTHCHECK_URL also sets one): every app is probed at GET /ready on its
 * HEALTH_PORT; a gateway without one at GET /health on PORT; an image with nothing to probe (the
 * CLI, or a service started without HEALTH_PORT) reports healthy. Exit 0 on a 2xx answer, 1 otherwise.
 */

const TIMEOUT_MS = 3000;

function target() {
  const explicit = process.argv[2] || process.env.HEALTHCHECK_URL;
  if (explicit) return explicit;
  const healthPort = Number(process.env.HEALTH_PORT || 0);
  if (healthPort > 0) return `http://127.0.0.1:${healthPort}/ready`;
  if (process.env.APP === 'gateway') return `http://127.0.0.1:${process.env.PORT || 8080}/health`;
  return undefined;
}

const url = target();
if (!url) process.exit(0);

fetch(url, { signal: AbortSignal.timeout(TIMEOUT_MS) }).then(
  (response) => {
    if (!response.ok) process.stderr.write(`${url}: HTTP ${response.status}\n`);
    process.exit(response.ok ? 0 : 1);
  },
  (error) => {
    process.stderr.write(`${url}: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
