import { Controller, Get, Header, Param, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { createReadStream } from 'node:fs';
import { dirname, join } from 'node:path';
import { DomainError } from '@credit/contracts/errors';
import { Public } from '../auth/public.decorator';
import { buildOpenApiDocument } from './openapi-document';

// swagger-ui-dist ships the browsable reference's assets; nothing is fetched from the internet.
// Resolved by path only: requiring the package itself would load its 1 MB bundle at boot.
const SWAGGER_DIR = dirname(require.resolve('swagger-ui-dist/package.json'));
const ASSETS: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'application/javascript; charset=utf-8',
  'swagger-ui-standalone-preset.js': 'application/javascript; charset=utf-8',
};

const DOCS_PAGE = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>Credit Scoring API reference</title>
  <link rel="stylesheet" href="/docs/assets/swagger-ui.css">
</head>
<body>
  <div id="reference"></div>
  <script src="/docs/assets/swagger-ui-bundle.js"></script>
  <script src="/docs/assets/swagger-ui-standalone-preset.js"></script>
  <script>
    window.ui = SwaggerUIBundle({ url: '/openapi.json', dom_id: '#reference', deepLinking: true,
      presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset], layout: 'BaseLayout' });
  </script>
</body>
</html>`;

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
  @Header('content-type', 'text/html; charset=utf-8')
  docs(): string {
    return DOCS_PAGE;
  }

  @Get('docs/assets/:file')
  asset(@Param('file') file: string, @Res() reply: FastifyReply): void {
    const type = ASSETS[file];
    if (type === undefined) throw new DomainError('route_not_found', `Not found: /docs/assets/${file}`);
    void reply.type(type).header('cache-control', 'public, max-age=86400').send(createReadStream(join(SWAGGER_DIR, file)));
  }
}
