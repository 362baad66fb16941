import 'reflect-metadata';
import { Module, type DynamicModule } from '@nestjs/common';
import { APP_FILTER, NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { generateApiKey, hashApiKey } from '@credit/contracts/api-key';
import type { SubjectName } from '@credit/contracts/subjects';
import { parseRequest } from '@credit/contracts/validate';
import type { AccountRecord } from '@credit/db/account-repository';
import { Meter } from '@credit/metering/meter';
import { RpcClient } from '@credit/rpc/rpc-client';
import { AuthenticateKey } from '../../src/auth/authenticate-key';
import { KEY_STORE, type KeyStore, type StoredKey } from '../../src/auth/key-store';
import { LastUsedRecorder } from '../../src/auth/last-used-recorder';
import { gatewayConfig } from '../../src/config';
import { GatewayConfigModule } from '../../src/gateway-config.module';
import { HttpExceptionFilter } from '../../src/http/http-exception.filter';
import { Metering } from '../../src/metering/metering';
import { X402Payments } from '../../src/payments/x402-payments';
import { AccountLanes } from '../../src/routes/account-lanes';
import { BillingHooks } from '../../src/routes/billing-hooks';
import { StatusTally } from '../../src/metering/status-tally';
import { UsageStatusRepository, type StatusCount } from '@credit/db/usage-status-repository';
import { Forwarder } from '../../src/routes/forwarder';
import { OperationRoutes } from '../../src/routes/operation-routes';
import { FakeMeter } from './fake-meter';

export { FakeMeter } from './fake-meter';

/** One message the gateway sent over the fake bus: the request as it goes on the wire (parsed, defaults applied). */
export interface SentMessage {
  subject: SubjectName;
  request: Record<string, unknown>;
}

type Answer = (request: Record<string, unknown>) => unknown;

/**
 * The RpcClient the routes and the x402 path send through, without NATS: each subject answers
 * what the test gave it (a value, or a thrown DomainError as a service's failure); a subject with
 * no answer fails as the bus does when nothing subscribes (503). Like the real client, it checks
 * the request against its subject's schema first: a request the schema refuses fails with the
 * schema's error and is never sent. Records every message sent.
 */
export class FakeRpc {
  readonly sent: SentMessage[] = [];
  private readonly answers = new Map<SubjectName, Answer>();

  answer(subject: SubjectName, answer: Answer): this {
    this.answers.set(subject, answer);
    return this;
  }

  sentOn(subject: SubjectName): Record<string, unknown>[] {
    return this.sent.filter((m) => m.subject === subject).map((m) => m.request);
  }

  send(subject: SubjectName, request: Record<string, unknown>): Promise<unknown> {
    let data: Record<string, unknown>;
    try {
      data = parseRequest(subject, request) as Record<string, unknown>;
    } catch (error) {
      return Promise.reject(error as Error);
    }
    this.sent.push({ subject, request: data });
    const answer = this.answers.get(subject);
    if (answer === undefined) return Promise.reject(new Error(`no answer for ${subject} in this test`));
    return new Promise((resolve) => resolve(answer(data)));
  }
}

export interface HarnessResponse {
  statusCode: number;
  headers: Headers;
  body: string;
  json(): Record<string, unknown>;
}

export interface RouteHarness {
  app: NestFastifyApplication;
  /** A request to the app over HTTP on 127.0.0.1. */
  request(method: 'GET' | 'POST', path: string, headers?: Record<string, string>): Promise<HarnessResponse>;
  rpc: FakeRpc;
  meter: FakeMeter;
  /** A well-formed key of `account`, known to the key store. */
  key: string;
  account: AccountRecord;
  /** The requests the gateway counted by status class so far (written at once, then read). */
  statusCounts(): Promise<StatusCount[]>;
  close(): Promise<void>;
}

export interface RouteHarnessOptions {
  /** x402 on (a pay-to address): production routes without a key take the payment path. */
  x402?: boolean;
  /** The meter's behaviour; the default admits everything and lets nothing run ahead. */
  meter?: FakeMeter;
}

/**
 * The operation routes and their billing hooks as the gateway registers them, on Fastify under
 * Nest, with the real authentication, metering and x402 use cases, over a fake bus (`FakeRpc`),
 * a fake meter (`FakeMeter`) and an in-memory key store: a route's admit, settle, refund and
 * payment paths without NATS, Redis or Postgres. Requests go in over HTTP (`request`).
 */
export async function startRouteHarness(options: RouteHarnessOptions = {}): Promise<RouteHarness> {
  const config = gatewayConfig({
    NATS_URL: 'nats://127.0.0.1:1',
    DATABASE_URL: 'postgres://unused@127.0.0.1:1/unused',
    REDIS_URL: 'redis://127.0.0.1:1',
    ...(options.x402 === true && { X402_PAY_TO: '0x000000000000000000000000000000000000dEaD' }),
  });
  const rpc = new FakeRpc();
  const meter = options.meter ?? new FakeMeter();
  const key = generateApiKey();
  const account: AccountRecord = {
    id: 'acc_harness',
    email: 'harness@example.com',
    plan: 'pro',
    isActive: true,
    isVerified: true,
    monthlyCu: null,
    createdAt: new Date(),
  };
  const statuses: StatusCount[] = [];
  const statusStore: Pick<UsageStatusRepository, 'add'> = {
    add: (counts) => {
      statuses.push(...counts);
      return Promise.resolve();
    },
  };
  const stored: StoredKey = { keyId: 'key_harness', account, status: 'active' };
  const keyStore: KeyStore = {
    findByHash: (hash) => Promise.resolve(hash === hashApiKey(key) ? stored : null),
    touchLastUsed: () => Promise.resolve(),
  };

  @Module({})
  class RouteHarnessModule {
    static forTest(): DynamicModule {
      return {
        module: RouteHarnessModule,
        imports: [GatewayConfigModule.forRoot(config)],
        providers: [
          { provide: RpcClient, useValue: rpc },
          { provide: Meter, useValue: meter },
          { provide: KEY_STORE, useValue: keyStore },
          LastUsedRecorder,
          AuthenticateKey,
          Metering,
          X402Payments,
          AccountLanes,
          Forwarder,
          { provide: UsageStatusRepository, useValue: statusStore },
          StatusTally,
          BillingHooks,
          OperationRoutes,
          { provide: APP_FILTER, useClass: HttpExceptionFilter },
        ],
      };
    }
  }

  const app = await NestFactory.create<NestFastifyApplication>(RouteHarnessModule.forTest(), new FastifyAdapter(), {
    bodyParser: false,
    logger: false,
  });
  // A socket on a free port and fetch: Fastify's `inject` loads an ES module jest cannot load on Node 20.
  await app.listen(0, '127.0.0.1');
  const base = await app.getUrl();
  const request = async (method: 'GET' | 'POST', path: string, headers: Record<string, string> = {}): Promise<HarnessResponse> => {
    const response = await fetch(`${base.replace('[::1]', '127.0.0.1')}${path}`, { method, headers });
    const body = await response.text();
    return { statusCode: response.status, headers: response.headers, body, json: () => JSON.parse(body) as Record<string, unknown> };
  };
  /** The requests counted by status so far, written as the gateway writes them every interval. */
  const statusCounts = async (): Promise<StatusCount[]> => {
    await app.get(StatusTally).flush();
    return statuses;
  };
  return { app, request, rpc, meter, key, account, statusCounts, close: () => app.close() };
}
