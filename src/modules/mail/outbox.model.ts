/** The local outbox: mails written instead of sent when SMTP_URL is unset (table `mail_outbox`). */
import { BaseModel } from "../../db/base-model.ts";

/** One plain-text mail kept in the outbox; `id` has the prefix `mail_`. */
export class OutboxMail extends BaseModel {
  static override tableName = "mail_outbox";
  static override idKind = "outbox" as const;
  declare to: string;
  declare subject: string;
  declare text: string;
  declare createdAt: Date;
}
