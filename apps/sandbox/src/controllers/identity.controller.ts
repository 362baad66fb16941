import { Controller } from '@nestjs/common';
import { Handles } from '@credit/rpc/handles.decorator';
import { Clock } from '../clock';
import type { Answer, Req } from './handler-types';
import { identityAttestations } from '../use-cases/identity-attestations';

/** Sandbox identity attestations. */
@Controller()
export class IdentityController {
  constructor(private readonly clock: Clock) {}

  @Handles('credit.sandbox.identity.attestations.v1')
  attestations(
    request: Req<'credit.sandbox.identity.attestations.v1'>,
  ): Answer<'credit.sandbox.identity.attestations.v1'> {
    return identityAttestations(request, this.clock.now());
  }
}
