import { SMTPServer } from 'smtp-server';

/** A message as the capture received it: envelope recipients, subject and the decoded text body. */
export interface CapturedMail {
  to: string[];
  subject: string;
  text: string;
}

/**
 * A local SMTP server that keeps every message it is sent: the mail server the dashboard talks to
 * in tests (it lies outside our system; this one speaks the same protocol on 127.0.0.1). Plain
 * SMTP without STARTTLS or AUTH; `url` is what SMTP_URL is set to.
 */
export interface SmtpCapture {
  url: string;
  messages: CapturedMail[];
  /** The newest message to `address` that arrived after `since` messages, waiting up to `timeoutMs`. */
  waitFor(address: string, options?: { since?: number; timeoutMs?: number }): Promise<CapturedMail>;
  close(): Promise<void>;
}

export async function startSmtpCapture(): Promise<SmtpCapture> {
  const messages: CapturedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        messages.push(
          parseMessage(
            Buffer.concat(chunks).toString('utf8'),
            session.envelope.rcptTo.map((r) => r.address.toLowerCase()),
          ),
        );
        callback();
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const address = server.server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    async waitFor(to, { since = 0, timeoutMs = 10_000 } = {}) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = messages.slice(since).filter((m) => m.to.includes(to.toLowerCase()));
        if (found.length > 0) return found[found.length - 1]!;
        if (Date.now() > deadline) throw new Error(`no mail to ${to} within ${timeoutMs} ms`);
        await new Promise((r) => setTimeout(r, 25));
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Headers and a text body (quoted-printable or plain), as nodemailer writes a text-only message. */
function parseMessage(raw: string, to: string[]): CapturedMail {
  const split = raw.indexOf('\r\n\r\n');
  const head = raw.slice(0, split).replace(/\r\n[ \t]+/g, ' ');
  const body = raw.slice(split + 4);
  const header = (name: string) => new RegExp(`^${name}:\\s*(.*)$`, 'im').exec(head)?.[1]?.trim() ?? '';
  const text = /quoted-printable/i.test(header('Content-Transfer-Encoding')) ? decodeQuotedPrintable(body) : body;
  return { to, subject: header('Subject'), text: text.replace(/\r\n/g, '\n').trim() };
}

function decodeQuotedPrintable(text: string): string {
  const bytes = text.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  return Buffer.from(bytes, 'latin1').toString('utf8');
}
