import { Controller, Get, Header, Param, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { Public } from '../auth/public.decorator';
import { DOCS_INIT_SCRIPT, openDocsAsset } from './docs-assets';
import { buildOpenApiDocument } from './openapi-document';

const DOCS_PAGE = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>Credit Scoring API reference</title>
  <link rel="icon" href="data:,">
  <link rel="stylesheet" href="/docs/assets/swagger-ui.css">
</head>
<body>
  <div id="reference" data-url="/openapi.json"></div>
  <script src="/docs/assets/swagger-ui-bundle.js"></script>
  <script src="/docs/assets/swagger-ui-standalone-preset.js"></script>
  <script src="/docs/assets/${DOCS_INIT_SCRIPT}"></script>
</body>
</html>`;

/**
 * The reference shares the dashboard's origin, so a script injected into it could read the
 * dashboard's CSRF cookie and act for a signed-in user: scripts and styles from this origin only
 * (no inline script, no eval), requests ("Try it out") to this origin only, no framing, no plugin,
 * no form posting elsewhere. Swagger UI's icons are data: images.
 */
export const DOCS_HEADERS: Record<string, string> = {
  'content-security-policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self'; connect-src 'self'; " +
    "frame-ancestors 'none'; base-uri 'none'; form-action 'self'; object-src 'none'",
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
};

@Controller()
@Public()
export class OpenApiController {
  private readonly document = JSON.stringify(buildOpenApiDocument());

  @Get('openapi.json')
  @Header('content-type', 'application/json; charset=utf-8')
  openapi(): string {
    return this.document;
  }

  @Get('docs')
  docs(@Res() reply: FastifyReply): void {
    void reply.headers({ ...DOCS_HEADERS, 'content-type': 'text/html; charset=utf-8' }).send(DOCS_PAGE);
  }

  @Get('docs/assets/:file')
  async asset(@Param('file') file: string, @Res() reply: FastifyReply): Promise<void> {
    const { type, stream } = await openDocsAsset(file);
    void reply.headers({ ...DOCS_HEADERS, 'content-type': type, 'cache-control': 'public, max-age=86400' }).send(stream);
  }
}
