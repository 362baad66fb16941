import { Inject, Injectable } from '@nestjs/common';
import { GATEWAY_CONFIG } from '../gateway-config.token';
import type { GatewayConfig } from '../config';

/**
 * The base URL of the links the dashboard mails: PUBLIC_URL, or else the address the gateway
 * listens on (set once it listens). Never the request's Host header: a caller could point a
 * verification link, and its token, at a host of its own.
 */
@Injectable()
export class PublicUrl {
  private listening: string | undefined;

  constructor(@Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig) {}

  setListening(url: string): void {
    this.listening = url;
  }

  get base(): string {
    const base = this.config.PUBLIC_URL ?? this.listening ?? `http://localhost:${this.config.PORT}`;
    return base.replace(/\/+$/, '');
  }
}
