/** Module manifest: outgoing mail (SMTP or the local outbox), sent by the `mail.send` job. */
import { defineModule } from "../module.ts";
import { sendMailJob } from "./mail.jobs.ts";

/** The mail module. */
export const mailModule = defineModule({
  name: "mail",
  tables: ["mail_outbox"],
  jobs: [sendMailJob],
});

// The public surface: what other modules may import (they import nothing else of this folder).
export { enqueueMail, queuedMailer } from "./mail.jobs.ts";
export { createMailer, readOutbox } from "./mailer.ts";
