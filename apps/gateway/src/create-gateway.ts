import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { Logger } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { STATUS_CODES, type IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { DomainError, errorBody, type ErrorCode } from '@credit/contracts/errors';
import { appTelemetry } from '@credit/telemetry/app-telemetry';
import type { GatewayConfig } from './config';
import { GatewayModule } from './gateway.module';
import type { Clock } from './metering/clock';
import { answerCors } from './http/cors';
import { traceRequests } from './http/request-tracing';
import { PublicUrl } from './dashboard/public-url';
import { startProbeServer } from '@credit/observability/probe-server';
import { nameProcess } from '@credit/observability/process-registry';
import { countHttpRequests } from './observability/http-request-metrics';
import { GatewayReadiness } from './observability/gateway-readiness';

/** An error of the HTTP parser or of Node's request timer, before any route runs. */
function clientError(code: string | undefined): DomainError {
  switch (code) {
    case 'HPE_HEADER_OVERFLOW':
      return new DomainError('headers_too_large', 'Request headers (or the query string) too large');
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return new DomainError('request_timeout', 'The request was not received in time');
    default:
      return new DomainError('invalid_parameter', 'Malformed HTTP request');
  }
}

export interface RunningGateway {
  app: NestFastifyApplication;
  /** `http://127.0.0.1:<port>` */
  url: string;
  close(): Promise<void>;
}

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Builds and starts the gateway; `main.ts` and the tests both use it. */
export async function startGateway(config: GatewayConfig, options: { silent?: boolean; clock?: Clock } = {}): Promise<RunningGateway> {
  const adapter = new FastifyAdapter({
    // Names up to 255 characters fit in a path parameter (Fastify's default is 100).
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 300 },
    bodyLimit: config.BODY_LIMIT_BYTES,
    // `request.ip` (the per-client limits' key) is the client's address as the trusted proxies
    // report it; with none trusted, X-Forwarded-For is ignored (a client cannot pick its own address).
    trustProxy: config.TRUST_PROXY,
    // A request not received in full within the limit is cut with 408. Given to Node's server at
    // creation too: set only afterwards (Fastify's way), Node keeps its 60 s headers timeout above
    // it, and a stalled request then lasts those 60 s (measured on Node 20). Node looks for expired
    // requests every 30 s by default; every second keeps the cut near the limit.
    requestTimeout: config.REQUEST_TIMEOUT_MS,
    http: {
      requestTimeout: config.REQUEST_TIMEOUT_MS,
      connectionsCheckingInterval: Math.min(1_000, config.REQUEST_TIMEOUT_MS),
    },
    // Echo a caller's request id when it is sane, otherwise make one; it travels in NATS headers.
    genReqId: (req: IncomingMessage) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
    },
    logger: false,
    // No Nest middleware here: without middie every request skips its hook.
    skipMiddie: true,
    // Failures Fastify meets before routing (a bad %-escape in the path, an overlong path
    // parameter) and before parsing (oversized headers) keep the error envelope of docs/API.md §7 too.
    frameworkErrors: (error: { code?: string }, _request: FastifyRequest, reply: FastifyReply) => {
      const code: ErrorCode = error.code === 'FST_ERR_MAX_PARAM_LENGTH' ? 'uri_too_long' : 'invalid_parameter';
      const domain = new DomainError(code, code === 'uri_too_long' ? 'A path parameter is too long' : 'Malformed URL');
      void reply.status(domain.status).send(errorBody(domain));
    },
    clientErrorHandler: (error: NodeJS.ErrnoException, socket: Duplex) => {
      if (error.code === 'ECONNRESET' || socket.destroyed) return;
      const domain = clientError(error.code);
      const body = JSON.stringify(errorBody(domain));
      if (socket.writable) {
        socket.write(
          `HTTP/1.1 ${domain.status} ${STATUS_CODES[domain.status]}\r\nContent-Type: application/json\r\n` +
            `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
        );
      }
      socket.destroy(error);
    },
  });
  const telemetry = appTelemetry('gateway', {
    logLevel: config.LOG_LEVEL,
    silent: options.silent,
    accessLog: config.ACCESS_LOG === 'on',
    otlpEndpoint: config.OTEL_EXPORTER_OTLP_ENDPOINT,
  });
  const app = await NestFactory.create<NestFastifyApplication>(GatewayModule.forRoot(config, { clock: options.clock }), adapter, {
    // Fastify's own JSON parser only: no form-encoded bodies (415 like any other non-JSON body).
    bodyParser: false,
    logger: telemetry.nestLogger,
  });
  const fastify = app.getHttpAdapter().getInstance();
  traceRequests(fastify, telemetry.accessLog);
  // One hook for every request: its id echoed, and CORS (a preflight is answered there).
  fastify.addHook('onRequest', (request: FastifyRequest, reply: FastifyReply, done: () => void) => {
    void reply.header('x-request-id', request.id);
    if (!answerCors(request, reply)) done();
  });
  // JSON is the only body the API reads; anything else is 415 rather than a string body.
  fastify.removeContentTypeParser(['text/plain']);
  nameProcess('gateway', config.METRICS);
  countHttpRequests(fastify);
  await app.listen(config.PORT, config.HOST);
  // The probe port (`/health`, `/ready`, `/metrics`): never on the public port.
  const probes = await startProbeServer(config.HEALTH_PORT, app.get(GatewayReadiness).readiness);
  const address = fastify.server.address();
  const port = typeof address === 'object' && address !== null ? address.port : config.PORT;
  app.get(PublicUrl).setListening(`http://${config.HOST === '0.0.0.0' || config.HOST === '::' ? 'localhost' : config.HOST}:${port}`);
  if (!options.silent) {
    new Logger('gateway').log(`listening on http://${config.HOST}:${port}`);
    new Logger('gateway').log(`account dashboard: ${app.get(PublicUrl).base}/dashboard/`);
    if (app.get(PublicUrl).configured === undefined) {
      new Logger('gateway').warn(
        `PUBLIC_URL is not set: the dashboard's email links point at ${app.get(PublicUrl).base}, which works only in a browser ` +
          'that opened the dashboard at that address; set PUBLIC_URL to the address users open',
      );
    }
  }
  let closing: Promise<void> | undefined;
  return {
    app,
    url: `http://127.0.0.1:${port}`,
    close: () => {
      probes?.close();
      return (closing ??= app.close().then(telemetry.shutdown));
    },
  };
}
