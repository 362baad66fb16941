import type { FactoryProvider } from '@nestjs/common';
import { connectNats, natsAuthOf } from '@credit/rpc/nats-connection';
import { RpcClient } from '@credit/rpc/rpc-client';
import type { NatsConnection } from 'nats';
import { GATEWAY_CONFIG } from '../gateway-config.token';
import type { GatewayConfig } from '../config';

export const NATS_CONNECTION = Symbol('NatsConnection');

export const natsConnectionProvider: FactoryProvider<Promise<NatsConnection>> = {
  provide: NATS_CONNECTION,
  inject: [GATEWAY_CONFIG],
  useFactory: (config: GatewayConfig) => connectNats({ url: config.NATS_URL, name: 'gateway', ...natsAuthOf(config) }),
};

export const rpcClientProvider: FactoryProvider<RpcClient> = {
  provide: RpcClient,
  inject: [NATS_CONNECTION, GATEWAY_CONFIG],
  useFactory: (nc: NatsConnection, config: GatewayConfig) => new RpcClient(nc, config.NATS_SUBJECT_PREFIX, config.RPC_TIMEOUT_MS),
};
