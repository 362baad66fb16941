import { Inject, Injectable } from '@nestjs/common';
import { GATEWAY_CONFIG } from '../gateway-config.token';
import type { GatewayConfig } from '../config';

/**
 * The base URL of the links the dashboard mails, from configuration only: PUBLIC_URL; else
 * SIGNUP_URL when it names the dashboard (`https://app.example.com/dashboard/`, whose origin and
 * path before `/dashboard` are then the base); else the address the gateway listens on (set once
 * it listens, `localhost` for a wildcard host), which is right only on the machine itself: a
 * browser that opened the dashboard at another host name does not send its session cookie to the
 * link's (issue 39). The gateway warns at boot when it falls back to that. Never the request's
 * Host header: a caller could point a verification link, and its token, at a host of its own.
 */
@Injectable()
export class PublicUrl {
  private listening: string | undefined;

  constructor(@Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig) {}

  setListening(url: string): void {
    this.listening = url;
  }

  /** The configured base, or undefined when the links fall back to the listening address. */
  get configured(): string | undefined {
    if (this.config.PUBLIC_URL !== undefined) return trimSlashes(this.config.PUBLIC_URL);
    return dashboardBase(this.config.SIGNUP_URL);
  }

  get base(): string {
    return this.configured ?? trimSlashes(this.listening ?? `http://localhost:${this.config.PORT}`);
  }
}

/** `https://host/prefix/dashboard/` → `https://host/prefix`; anything else (another page, a query) → undefined. */
function dashboardBase(signupUrl: string | undefined): string | undefined {
  if (signupUrl === undefined) return undefined;
  const url = new URL(signupUrl);
  const match = /^(.*)\/dashboard\/?$/.exec(url.pathname);
  if (match === null || url.search !== '' || url.hash !== '') return undefined;
  return trimSlashes(url.origin + match[1]);
}

function trimSlashes(url: string): string {
  return url.replace(/\/+$/, '');
}
