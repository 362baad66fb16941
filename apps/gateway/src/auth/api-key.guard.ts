import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyRequest } from 'fastify';
import { AUTH_CONTEXT, type WithAuth } from './auth-context';
import { AuthenticateKey } from './authenticate-key';
import { IS_PUBLIC } from './public.decorator';

/** Every route needs a bearer key unless marked @Public() (docs/API.md §5: all endpoints require it). */
@Injectable()
export class ApiKeyGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly authenticate: AuthenticateKey,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const isPublic = this.reflector.getAllAndOverride<boolean | undefined>(IS_PUBLIC, [context.getHandler(), context.getClass()]);
    if (isPublic) return true;
    const request = context.switchToHttp().getRequest<FastifyRequest & WithAuth>();
    request[AUTH_CONTEXT] = await this.authenticate.execute(request.headers.authorization);
    return true;
  }
}
