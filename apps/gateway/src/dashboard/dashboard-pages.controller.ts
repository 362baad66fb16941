import { Controller, Get, Param, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DomainError } from '@credit/contracts/errors';
import { Public } from '../auth/public.decorator';

/** The dashboard's static files (apps/gateway/dashboard), read once at boot: a page shell, its script and styles. */
const DIR = join(__dirname, '..', '..', 'dashboard');
const ASSETS = new Map<string, { type: string; body: Buffer }>([
  ['app.js', { type: 'application/javascript; charset=utf-8', body: readFileSync(join(DIR, 'app.js')) }],
  ['style.css', { type: 'text/css; charset=utf-8', body: readFileSync(join(DIR, 'style.css')) }],
]);
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
  @Get(['', 'signin', 'signup', 'verify', 'forgot', 'reset', 'keys', 'usage'])
  page(@Res() reply: FastifyReply): void {
    void reply.headers({ ...PAGE_HEADERS, 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }).send(PAGE);
  }

  @Get('assets/:file')
  asset(@Param('file') file: string, @Res() reply: FastifyReply): void {
    const asset = ASSETS.get(file);
    if (asset === undefined) throw new DomainError('route_not_found', `Not found: /dashboard/assets/${file}`);
    void reply.headers({ ...PAGE_HEADERS, 'content-type': asset.type, 'cache-control': 'no-cache' }).send(asset.body);
  }
}
