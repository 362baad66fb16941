import { Module } from '@nestjs/common';
import { RpcClient } from '@credit/rpc/rpc-client';
import { NatsConnectionCloser } from './nats-connection.closer';
import { NATS_CONNECTION, natsConnectionProvider, rpcClientProvider } from './nats.providers';

/** The gateway's one NATS connection and the RPC client over it; drained when the features above it have stopped. */
@Module({
  providers: [natsConnectionProvider, rpcClientProvider, NatsConnectionCloser],
  exports: [NATS_CONNECTION, RpcClient],
})
export class NatsModule {}
