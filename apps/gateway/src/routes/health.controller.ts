import { Controller, Get, Inject } from '@nestjs/common';
import type { NatsConnection } from 'nats';
import { DomainError } from '@credit/contracts/errors';
import { Public } from '../auth/public.decorator';
import { NATS_CONNECTION } from '../rpc/nats.providers';

/**
 * Liveness and readiness for orchestrators: ready while the message bus is connected. Public, so
 * it says nothing but the status (no server address or version for a stranger to map).
 */
@Controller('health')
@Public()
export class HealthController {
  constructor(@Inject(NATS_CONNECTION) private readonly nc: NatsConnection) {}

  @Get()
  health(): { status: 'ok' } {
    if (this.nc.isClosed()) throw new DomainError('service_unavailable', 'The message bus connection is closed');
    return { status: 'ok' };
  }
}
