/**
 * The `mail.send` job: requests enqueue a mail in their transaction and a worker hands it to the mailer (SMTP or
 * the outbox), so a slow or failing SMTP server delays the mail, never the request. The body is stored encrypted
 * in the queue (it carries verification and invitation links); subject and recipient stay readable for
 * `npm run skiff -- jobs`. Retries: graphile-worker's exponential backoff, 10 attempts (about 2.5 hours).
 */
import type { Knex } from "knex";
import { z } from "zod";
import type { Mailer, MailMessage } from "../../auth/mailer.ts";
import { defineJob, PermanentJobError } from "../../jobs/job-definition.ts";
import type { AppServices } from "../services.ts";

const payload = z.object({
  to: z.string().min(3).max(254),
  subject: z.string().min(1).max(998),
  /** The body, sealed with the server secret (src/db/secrets.ts). */
  sealedText: z.string().min(1),
});

/** `mail.send`: sends one plain-text mail through `services.mailer`. */
export const sendMailJob = defineJob({
  name: "mail.send",
  payload,
  retry: { kind: "backoff", maxAttempts: 10 },
  async handler(mail, ctx) {
    let text: string;
    try {
      text = ctx.services.secrets.decrypt(mail.sealedText);
    } catch {
      throw new PermanentJobError("The mail body cannot be decrypted (was SKIFF_SECRET changed?)");
    }
    await ctx.services.mailer.send({ to: mail.to, subject: mail.subject, text });
  },
});

/**
 * Enqueues `message` as a `mail.send` job through `db` (pass the caller's transaction: the mail leaves only if
 * it commits). @returns the job id.
 */
export function enqueueMail(
  services: Pick<AppServices, "jobs" | "secrets">,
  db: Knex | Knex.Transaction,
  message: MailMessage,
): Promise<string> {
  return services.jobs.enqueue(db, sendMailJob, {
    to: message.to,
    subject: message.subject,
    sealedText: services.secrets.encrypt(message.text),
  });
}

/**
 * A {@link Mailer} whose `send` enqueues (on `knex`, no transaction): for callers that give us no transaction,
 * such as better-auth's verification mail hook.
 */
export function queuedMailer(services: Pick<AppServices, "jobs" | "secrets">, knex: Knex): Mailer {
  return {
    async send(message) {
      await enqueueMail(services, knex, message);
    },
  };
}
