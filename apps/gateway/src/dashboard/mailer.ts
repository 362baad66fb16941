import { Logger, type FactoryProvider } from '@nestjs/common';
import { DomainError } from '@credit/contracts/errors';
import { createTransport, type Transporter } from 'nodemailer';
import { GATEWAY_CONFIG } from '../gateway-config.token';
import type { GatewayConfig } from '../config';

export interface Mail {
  to: string;
  subject: string;
  text: string;
}

/**
 * Sends the dashboard's emails: through SMTP when SMTP_URL is set, to the log otherwise. A mail
 * that cannot be sent is a 503: the user asks again.
 */
export interface Mailer {
  send(mail: Mail): Promise<void>;
}

export const MAILER = Symbol('Mailer');

/** Every SMTP step is bounded, so a mail server that hangs fails the sign-up (503) instead of holding it. */
const SMTP_TIMEOUT_MS = 10_000;

class SmtpMailer implements Mailer {
  private readonly logger = new Logger('mail');
  private readonly transport: Transporter;

  constructor(
    url: string,
    private readonly from: string,
  ) {
    this.transport = createTransport({
      url,
      connectionTimeout: SMTP_TIMEOUT_MS,
      greetingTimeout: SMTP_TIMEOUT_MS,
      socketTimeout: SMTP_TIMEOUT_MS,
    });
  }

  async send(mail: Mail): Promise<void> {
    try {
      await this.transport.sendMail({ from: this.from, to: mail.to, subject: mail.subject, text: mail.text });
    } catch (error) {
      this.logger.warn(`mail to ${mail.to} not sent: ${(error as Error).message}`);
      throw new DomainError('service_unavailable', 'The email could not be sent; try again shortly');
    }
  }
}

/** No mail server configured (a development stack): the operator reads the link in the log. */
class LogMailer implements Mailer {
  private readonly logger = new Logger('mail');

  send(mail: Mail): Promise<void> {
    this.logger.log(`to ${mail.to}: ${mail.subject}\n${mail.text}`);
    return Promise.resolve();
  }
}

export const mailerProvider: FactoryProvider<Mailer> = {
  provide: MAILER,
  inject: [GATEWAY_CONFIG],
  useFactory: (config: GatewayConfig) =>
    config.SMTP_URL === undefined ? new LogMailer() : new SmtpMailer(config.SMTP_URL, config.MAIL_FROM),
};
