import { Controller, Get, Header, Param, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { Public } from '../auth/public.decorator';
import { openDocsAsset } from './docs-assets';
import { buildOpenApiDocument } from './openapi-document';

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
  async asset(@Param('file') file: string, @Res() reply: FastifyReply): Promise<void> {
    const { type, stream } = await openDocsAsset(file);
    void reply.type(type).header('cache-control', 'public, max-age=86400').send(stream);
  }
}
