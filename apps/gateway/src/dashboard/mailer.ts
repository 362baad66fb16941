import { Logger, type FactoryProvider } from '@nestjs/common';
import { createTransport, type Transporter } from 'nodemailer';
import { GATEWAY_CONFIG } from '../gateway-config.token';
import type { GatewayConfig } from '../config';

export interface Mail {
  to: string;
  subject: string;
  /** Holds live links (a sign-up or reset token): never logged unless MAIL_LOG_LINKS=1. */
  text: string;
}

/** Every SMTP step is bounded, so a mail server that hangs fails the attempt (retried by the mail queue). */
const SMTP_TIMEOUT_MS = 10_000;

/**
 * Sends the dashboard's emails through SMTP (SMTP_URL); without it nothing is delivered. A failure
 * throws: the mail queue (mail-queue.ts) retries it. The log gets one line a mail, recipient and
 * subject; the text, whose links sign up or reset a password, only when the operator opts in with
 * MAIL_LOG_LINKS=1 (a development stack without a mail server).
 */
export class Mailer {
  private readonly logger = new Logger('mail');

  constructor(
    private readonly transport: Transporter | null,
    private readonly from: string,
    private readonly logLinks: boolean,
  ) {}

  async send(mail: Mail): Promise<void> {
    if (this.transport !== null) {
      await this.transport.sendMail({ from: this.from, to: mail.to, subject: mail.subject, text: mail.text });
    }
    const what = `${this.transport === null ? 'not sent (no SMTP_URL)' : 'sent'} to ${mail.to}: ${mail.subject}`;
    this.logger.log(this.logLinks ? `${what}\n${mail.text}` : `${what} (its links are logged only with MAIL_LOG_LINKS=1)`);
  }
}

export const mailerProvider: FactoryProvider<Mailer> = {
  provide: Mailer,
  inject: [GATEWAY_CONFIG],
  useFactory: (config: GatewayConfig) => {
    const logLinks = config.MAIL_LOG_LINKS === '1';
    if (config.SMTP_URL === undefined && !logLinks) {
      new Logger('mail').warn('SMTP_URL is not set: dashboard mails are not delivered (MAIL_LOG_LINKS=1 logs their links instead)');
    }
    const transport =
      config.SMTP_URL === undefined
        ? null
        : createTransport({
            url: config.SMTP_URL,
            connectionTimeout: SMTP_TIMEOUT_MS,
            greetingTimeout: SMTP_TIMEOUT_MS,
            socketTimeout: SMTP_TIMEOUT_MS,
          });
    return new Mailer(transport, config.MAIL_FROM, logLinks);
  },
};
