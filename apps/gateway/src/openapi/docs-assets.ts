import { createReadStream } from 'node:fs';
import { dirname, join } from 'node:path';
import { Readable } from 'node:stream';
import { DomainError } from '@credit/contracts/errors';

// swagger-ui-dist ships the browsable reference's assets; nothing is fetched from the internet.
// Resolved by path only: requiring the package itself would load its 1 MB bundle at boot.
const SWAGGER_DIR = dirname(require.resolve('swagger-ui-dist/package.json'));

/** swagger-ui-dist's files served, by name. A Map: a name such as `constructor` or `__proto__` is just absent. */
const ASSETS = new Map<string, string>([
  ['swagger-ui.css', 'text/css; charset=utf-8'],
  ['swagger-ui-bundle.js', 'application/javascript; charset=utf-8'],
  ['swagger-ui-standalone-preset.js', 'application/javascript; charset=utf-8'],
]);

/**
 * Our own script that starts Swagger UI, a file rather than inline so that the page's CSP allows
 * no inline script. The document's URL is the page's `data-url`; no validator badge (it would load
 * an image from swagger.io).
 */
export const DOCS_INIT_SCRIPT = 'docs-init.js';
const INIT_SCRIPT = Buffer.from(`'use strict';
(function () {
  var root = document.getElementById('reference');
  window.ui = SwaggerUIBundle({
    url: root.getAttribute('data-url'),
    dom_id: '#reference',
    deepLinking: true,
    validatorUrl: null,
    presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
    layout: 'BaseLayout',
  });
})();
`);

export interface DocsAsset {
  type: string;
  stream: Readable;
}

/**
 * A docs asset, opened before anything is sent: an unknown name or a missing file is a 404, any
 * other failure to open a 500 (through the exception filter, in the error envelope of docs/API.md §7). A read error
 * after the headers are out ends the response (Fastify destroys it); the stream keeps its error
 * listener, so no error of it is ever unhandled.
 */
export function openDocsAsset(file: string, dir = SWAGGER_DIR): Promise<DocsAsset> {
  if (file === DOCS_INIT_SCRIPT)
    return Promise.resolve({ type: 'application/javascript; charset=utf-8', stream: Readable.from([INIT_SCRIPT]) });
  const type = ASSETS.get(file);
  if (type === undefined) return Promise.reject(notFound(file));
  return new Promise((resolve, reject) => {
    const stream = createReadStream(join(dir, file));
    stream.once('error', (error: NodeJS.ErrnoException) => reject(error.code === 'ENOENT' ? notFound(file) : error));
    stream.once('ready', () => resolve({ type, stream }));
  });
}

function notFound(file: string): DomainError {
  return new DomainError('route_not_found', `Not found: /docs/assets/${file}`);
}
