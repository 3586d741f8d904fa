/**
 * Outgoing mail (verification links, invitations): through SMTP when `SMTP_URL` is set (nodemailer, sender
 * `SMTP_FROM`), otherwise into the local outbox — a row in `mail_outbox` plus an info log line with the whole
 * message — so a newcomer or a test can read the links (`npm run skiff -- outbox`). README: "Sign-in setup".
 */
import type { Knex } from "knex";
import nodemailer from "nodemailer";
import type { Mailer, MailLog, MailMessage } from "../../auth/mailer.ts";
import type { Config } from "../../config.ts";
import { OutboxMail } from "./outbox.model.ts";

/** A {@link Mailer} that sends through SMTP. Rejects when the server refuses the message. */
export function createSmtpMailer(smtpUrl: string, from: string, log: MailLog): Mailer {
  const transport = nodemailer.createTransport(smtpUrl);
  return {
    async send(message) {
      await transport.sendMail({ from, to: message.to, subject: message.subject, text: message.text });
      log.info({ to: message.to, subject: message.subject }, "mail sent");
    },
  };
}

/** A {@link Mailer} that stores each message in `mail_outbox` and logs it (development and tests). */
export function createOutboxMailer(knex: Knex, log: MailLog): Mailer {
  return {
    async send(message) {
      const row = await OutboxMail.query(knex).insert({ ...message });
      log.info({ mail: { id: row.id, ...message } }, `mail to ${message.to} (outbox): ${message.subject}`);
    },
  };
}

/** The mailer configured by `SMTP_URL` / `SMTP_FROM` (see {@link createSmtpMailer}, {@link createOutboxMailer}). */
export function createMailer(config: Pick<Config, "SMTP_URL" | "SMTP_FROM">, knex: Knex, log: MailLog): Mailer {
  return config.SMTP_URL ? createSmtpMailer(config.SMTP_URL, config.SMTP_FROM, log) : createOutboxMailer(knex, log);
}

/** The newest `limit` outbox mails, newest first, optionally only those to `to` (case-insensitive). */
export async function readOutbox(knex: Knex, options: { to?: string; limit?: number } = {}): Promise<MailMessage[]> {
  const q = OutboxMail.query(knex)
    .orderBy("id", "desc")
    .limit(options.limit ?? 20);
  if (options.to) q.whereRaw("lower(??) = lower(?)", ["to", options.to]);
  return (await q).map((m) => ({ to: m.to, subject: m.subject, text: m.text }));
}
