import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { Logger, type LogLevel } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { IncomingMessage } from 'node:http';
import type { GatewayConfig } from './config';
import { GatewayModule } from './gateway.module';

export interface RunningGateway {
  app: NestFastifyApplication;
  /** `http://127.0.0.1:<port>` */
  url: string;
  close(): Promise<void>;
}

const LEVELS: LogLevel[] = ['fatal', 'error', 'warn', 'log', 'debug', 'verbose'];
const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Builds and starts the gateway; `main.ts` and the tests both use it. */
export async function startGateway(config: GatewayConfig, options: { silent?: boolean } = {}): Promise<RunningGateway> {
  const adapter = new FastifyAdapter({
    // Names up to 255 characters fit in a path parameter (Fastify's default is 100).
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 300 },
    bodyLimit: config.BODY_LIMIT_BYTES,
    // Echo a caller's request id when it is sane, otherwise make one; it travels in NATS headers.
    genReqId: (req: IncomingMessage) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
    },
    logger: false,
    // No Nest middleware here: without middie every request skips its hook.
    skipMiddie: true,
  });
  const app = await NestFactory.create<NestFastifyApplication>(GatewayModule.forRoot(config), adapter, {
    logger: options.silent ? false : LEVELS.slice(0, LEVELS.indexOf(config.LOG_LEVEL) + 1),
  });
  const fastify = app.getHttpAdapter().getInstance();
  fastify.addHook('onRequest', (request: FastifyRequest, reply: FastifyReply, done: () => void) => {
    void reply.header('x-request-id', request.id);
    done();
  });
  // JSON is the only body the API reads; anything else is 415 rather than a string body.
  fastify.removeContentTypeParser(['text/plain']);
  await app.listen(config.PORT, config.HOST);
  const address = fastify.server.address();
  const port = typeof address === 'object' && address !== null ? address.port : config.PORT;
  if (!options.silent) new Logger('gateway').log(`listening on http://${config.HOST}:${port}`);
  let closing: Promise<void> | undefined;
  return {
    app,
    url: `http://127.0.0.1:${port}`,
    close: () => (closing ??= app.close()),
  };
}
