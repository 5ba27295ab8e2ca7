import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

/** A message as the loopback SMTP server accepted it. */
export interface AcceptedMail {
  to: string[];
  subject: string;
  messageId: string;
  raw: string;
  at: number;
}

/** The value of a header in a raw message (unfolded), or ''. */
const headerOf = (raw: string, name: string) => {
  const head = raw.split(/\r?\n\r?\n/)[0] ?? '';
  const unfolded = head.replace(/\r?\n[ \t]+/g, ' ');
  return new RegExp(`^${name}:\\s*(.*)$`, 'im').exec(unfolded)?.[1]?.trim() ?? '';
};

/** The text part of a raw message, quoted-printable undone (enough to find words in it). */
export const bodyOf = (mail: AcceptedMail) =>
  mail.raw
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));

/**
 * A real SMTP server (nodemailer's `smtp-server`) on a loopback port, keeping what it accepts.
 * It can refuse recipients (`refuse`), and stop and start again on the same port (an outage).
 */
export async function startSmtpDouble() {
  const accepted: AcceptedMail[] = [];
  const refused = new Set<string>();
  let port = 0;
  const make = () =>
    new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      // An outage cuts the sender's pooled connections at once.
      closeTimeout: 100,
      onRcptTo(address, _session, callback) {
        if (refused.has(address.address.toLowerCase())) {
          const error = Object.assign(new Error('5.1.1 No such user here'), { responseCode: 550 });
          return callback(error);
        }
        callback();
      },
      onData(stream, session, callback) {
        let raw = '';
        stream.setEncoding('utf8');
        stream.on('data', (chunk: string) => {
          raw += chunk;
        });
        stream.on('end', () => {
          accepted.push({
            to: session.envelope.rcptTo.map((r) => r.address),
            subject: headerOf(raw, 'Subject'),
            messageId: headerOf(raw, 'Message-ID'),
            raw,
            at: Date.now(),
          });
          callback(null);
        });
      },
    });
  let server = make();
  // A sender killed mid-session resets its connection; smtp-server reports that as an 'error'
  // event, which is the sender's crash (what the crash tests do), not the double's.
  const dropped: Error[] = [];
  const listen = () =>
    new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        port = (server.server.address() as AddressInfo).port;
        server.off('error', reject);
        server.on('error', (error: NodeJS.ErrnoException) => {
          if (error.code !== 'ECONNRESET' && error.code !== 'EPIPE') throw error;
          dropped.push(error);
        });
        resolve();
      });
    });
  const close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  await listen();
  return {
    accepted,
    /** Connections a killed sender left behind. */
    dropped,
    url: () => `smtp://127.0.0.1:${port}`,
    /** Recipients refused with 550 from now on (lower case). */
    refuse: (address: string) => refused.add(address.toLowerCase()),
    accept: (address: string) => refused.delete(address.toLowerCase()),
    /** The messages accepted for `address`. */
    to: (address: string) =>
      accepted.filter((mail) => mail.to.some((to) => to.toLowerCase() === address.toLowerCase())),
    /** Stops listening (connections are refused) until `start`. */
    stop: close,
    async start() {
      server = make();
      await listen();
    },
    close,
  };
}

export type SmtpDouble = Awaited<ReturnType<typeof startSmtpDouble>>;
