import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { LlmsTxtController } from './llms-txt.controller';
import { McpRoutes } from './mcp-routes';

/** What the API offers agents: the MCP server (production and sandbox) and `llms.txt`. */
@Module({
  imports: [AuthModule],
  controllers: [LlmsTxtController],
  providers: [McpRoutes],
})
export class AgentsModule {}
