/**
 * Outgoing e-mail as the auth layer sees it: one `send` per message.
 * The server's mailer (SMTP, or the local outbox) is built in src/modules/mail/mailer.ts; the log mailer here is
 * the fallback of auth instances created without one (tests of the auth layer alone).
 */

/** One plain-text e-mail. */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
}

/** Sends e-mail. `send` resolves once the message is handed over (or queued); it rejects on failure. */
export interface Mailer {
  send(message: MailMessage): Promise<void>;
}

/** The part of a pino logger the log mailer needs. */
export interface MailLog {
  info(obj: object, msg?: string): void;
}

/** A {@link Mailer} that writes each message, body included, to `log` at info level (development default). */
export function createLogMailer(log: MailLog): Mailer {
  return {
    async send(message) {
      log.info({ mail: message }, `mail to ${message.to}: ${message.subject}`);
    },
  };
}
