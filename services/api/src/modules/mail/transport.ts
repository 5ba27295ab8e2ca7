import nodemailer from 'nodemailer';
import { PermanentFailure } from '../../reactors/reactor.ts';

/** A message as the outbox keeps it: rendered once, so every attempt sends the same bytes. */
export interface StoredMail {
  from: string;
  subject: string;
  text: string;
  html: string;
  /** `<…@domain>`: the same on every attempt, so a repeat after a crash folds in mail clients. */
  messageId: string;
}

export interface MailTransport {
  /** `smtp`: to the recipient; `development_mailbox`: nowhere (kept in the outbox for /dev/mail). */
  delivery: 'smtp' | 'development_mailbox';
  /** Hands the message over; resolves with the server's id for it, or throws. */
  send(to: string, mail: StoredMail): Promise<string>;
  close(): void;
}

/**
 * nodemailer on `SMTP_URL` (pooled connections), or, without it, nodemailer's JSON transport:
 * the message is built as it would be sent, and goes nowhere.
 */
export function mailTransport(smtpUrl: string | undefined): MailTransport {
  if (!smtpUrl) {
    const json = nodemailer.createTransport({ jsonTransport: true });
    return {
      delivery: 'development_mailbox',
      async send(to, mail) {
        await json.sendMail({ ...mail, to });
        return 'development-mailbox';
      },
      close: () => json.close(),
    };
  }
  const url = new URL(smtpUrl);
  const smtp = nodemailer.createTransport({
    host: url.hostname,
    port: Number(url.port) || (url.protocol === 'smtps:' ? 465 : 587),
    secure: url.protocol === 'smtps:',
    ...(url.username
      ? {
          auth: {
            user: decodeURIComponent(url.username),
            pass: decodeURIComponent(url.password),
          },
        }
      : {}),
    pool: true,
    maxConnections: 8,
    // A server that does not answer is a failed attempt, tried again later.
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 30_000,
  });
  return {
    delivery: 'smtp',
    async send(to, mail) {
      try {
        const info = await smtp.sendMail({
          ...mail,
          to,
          headers: { 'Auto-Submitted': 'auto-generated' },
        });
        return queueIdOf(info.response) ?? info.messageId;
      } catch (error) {
        const code = (error as { responseCode?: number }).responseCode;
        // 5xx: the server refuses this message for good (an unknown recipient, say).
        if (typeof code === 'number' && code >= 500)
          throw new PermanentFailure((error as Error).message, { cause: error });
        throw error;
      }
    },
    close: () => smtp.close(),
  };
}

/** The id an SMTP server gives an accepted message (`250 2.0.0 Ok: queued as 4F9A1`), if it says. */
const queueIdOf = (response: string | undefined) =>
  response?.match(/queued as\s+(\S+)/i)?.[1] ?? response?.trim() ?? null;
