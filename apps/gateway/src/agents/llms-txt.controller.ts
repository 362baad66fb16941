import { Controller, Get, Header } from '@nestjs/common';
import { Public } from '../auth/public.decorator';
import { buildLlmsTxt } from './llms-txt';

/** `GET /llms.txt`: public, like the OpenAPI document. */
@Controller()
@Public()
export class LlmsTxtController {
  private readonly text = buildLlmsTxt();

  @Get('llms.txt')
  @Header('content-type', 'text/markdown; charset=utf-8')
  llmsTxt(): string {
    return this.text;
  }
}
