import { Injectable } from '@nestjs/common';

/**
 * The time of calculation: the one non-deterministic input of every sandbox answer (its
 * `timestamp`). Injected so that tests can pin it.
 */
@Injectable()
export class Clock {
  now(): Date {
    return new Date();
  }
}
