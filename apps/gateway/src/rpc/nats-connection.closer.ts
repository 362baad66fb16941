import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import type { NatsConnection } from 'nats';
import { NATS_CONNECTION } from './nats.providers';

/** Drains the gateway's NATS connection last, after in-flight requests have their replies. */
@Injectable()
export class NatsConnectionCloser implements OnApplicationShutdown {
  constructor(@Inject(NATS_CONNECTION) private readonly nc: NatsConnection) {}

  async onApplicationShutdown(): Promise<void> {
    if (!this.nc.isClosed()) await this.nc.drain();
  }
}
