import { Module, type DynamicModule } from '@nestjs/common';
import type { GatewayConfig } from './config';
import { GATEWAY_CONFIG } from './gateway-config.token';
import { CLOCK, type Clock } from './metering/clock';

/**
 * The run's settings, open to every feature: the validated configuration and the clock (tests
 * inject one). Global, so Nest starts it first and stops it last.
 */
@Module({})
export class GatewayConfigModule {
  static forRoot(config: GatewayConfig, clock: Clock = Date.now): DynamicModule {
    return {
      module: GatewayConfigModule,
      global: true,
      providers: [
        { provide: GATEWAY_CONFIG, useValue: config },
        { provide: CLOCK, useValue: clock },
      ],
      exports: [GATEWAY_CONFIG, CLOCK],
    };
  }
}
