import { createReadStream, type ReadStream } from 'node:fs';
import { dirname, join } from 'node:path';
import { DomainError } from '@credit/contracts/errors';

// swagger-ui-dist ships the browsable reference's assets; nothing is fetched from the internet.
// Resolved by path only: requiring the package itself would load its 1 MB bundle at boot.
const SWAGGER_DIR = dirname(require.resolve('swagger-ui-dist/package.json'));

/** The only files served, by name. A Map: a name such as `constructor` or `__proto__` is just absent. */
const ASSETS = new Map<string, string>([
  ['swagger-ui.css', 'text/css; charset=utf-8'],
  ['swagger-ui-bundle.js', 'application/javascript; charset=utf-8'],
  ['swagger-ui-standalone-preset.js', 'application/javascript; charset=utf-8'],
]);

export interface DocsAsset {
  type: string;
  stream: ReadStream;
}

/**
 * A docs asset, opened before anything is sent: an unknown name or a missing file is a 404, any
 * other failure to open a 500 (through the exception filter, in the error envelope of docs/API.md §7). A read error
 * after the headers are out ends the response (Fastify destroys it); the stream keeps its error
 * listener, so no error of it is ever unhandled.
 */
export function openDocsAsset(file: string, dir = SWAGGER_DIR): Promise<DocsAsset> {
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
