import { Controller, Get, Headers, Param, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import { DomainError } from '@credit/contracts/errors';
import { Public } from '../auth/public.decorator';

/** The dashboard's static files (apps/gateway/dashboard): a page shell, its ES modules under js/, its styles. */
const DIR = join(__dirname, '..', '..', 'dashboard');
const TYPES = new Map([
  // Module scripts must be served as JavaScript (with nosniff, the browser checks the type).
  ['.js', 'text/javascript; charset=utf-8'],
  ['.css', 'text/css; charset=utf-8'],
]);

interface Asset {
  type: string;
  body: Buffer;
  etag: string;
}

/**
 * Every script and stylesheet of the folder, read once at boot and keyed by its path there
 * ("css/base.css", "js/views/keys.js"). A request is only a lookup in this map, so no path it names
 * can reach another file; a Map, so `constructor` or `__proto__` is just absent.
 */
function readAssets(dir: string, prefix = '', assets = new Map<string, Asset>()): Map<string, Asset> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (!/^[a-z0-9][a-z0-9-]*(\.[a-z]+)?$/.test(entry.name)) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      readAssets(path, `${prefix}${entry.name}/`, assets);
      continue;
    }
    const type = TYPES.get(extname(entry.name));
    if (!entry.isFile() || type === undefined) continue;
    const body = readFileSync(path);
    assets.set(prefix + entry.name, { type, body, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"` });
  }
  return assets;
}

const ASSETS = readAssets(DIR);
const PAGE = readFileSync(join(DIR, 'index.html'));

/**
 * Same origin only, no inline script or style, no framing; no Referer leaves a page (the verify
 * and reset pages' URLs carry their tokens).
 */
const PAGE_HEADERS: Record<string, string> = {
  'content-security-policy':
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; " +
    "frame-ancestors 'none'; base-uri 'none'; form-action 'self'",
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
};

/**
 * The account dashboard's pages (docs/decisions/0006): one shell for every page path, the script
 * renders the page the path names and talks to `/dashboard/api`.
 */
@Public()
@Controller('dashboard')
export class DashboardPagesController {
  @Get(['', 'signin', 'signup', 'verify', 'forgot', 'reset', 'keys', 'usage', 'webhooks'])
  page(@Res() reply: FastifyReply): void {
    void reply.headers({ ...PAGE_HEADERS, 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }).send(PAGE);
  }

  /**
   * Any other page path (issue 39): the shell, as a 404, so the page shows the dashboard's own
   * not-found view. Fastify matches the routes above and below (and the API's) first; an unknown
   * `/dashboard/api/…` path stays the API's JSON 404.
   */
  @Get('*')
  unknownPage(@Req() req: FastifyRequest, @Param('*') path: string, @Res() reply: FastifyReply): void {
    if (path === 'api' || path.startsWith('api/')) {
      throw new DomainError('route_not_found', `Not found: ${req.method} ${req.url.split('?')[0]}`);
    }
    void reply
      .code(404)
      .headers({ ...PAGE_HEADERS, 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' })
      .send(PAGE);
  }

  /**
   * A script or a stylesheet. `no-cache`: the browser asks again on every load (a deploy is seen
   * at once) and, its ETag unchanged, gets a 304 without the body.
   */
  @Get('assets/*')
  asset(@Param('*') file: string, @Headers('if-none-match') ifNoneMatch: string | undefined, @Res() reply: FastifyReply): void {
    const asset = ASSETS.get(file);
    if (asset === undefined) throw new DomainError('route_not_found', `Not found: /dashboard/assets/${file}`);
    void reply.headers({ ...PAGE_HEADERS, 'content-type': asset.type, 'cache-control': 'no-cache', etag: asset.etag });
    if (ifNoneMatch === asset.etag) void reply.code(304).send();
    else void reply.send(asset.body);
  }
}
