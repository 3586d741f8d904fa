/** Notification channels of organizations (table `notification_channels`). */
import { BaseModel } from "../../db/base-model.ts";
import { notificationChannelTable } from "./organization.tables.ts";

/** Kinds of notification channel; only e-mail for now. */
export type NotificationChannelType = "email";

/** Where an organization's notifications go; `target` is an e-mail address for `email`. */
export class NotificationChannel extends BaseModel {
  static override tableName = notificationChannelTable.table;
  static override idKind = "notificationChannel" as const;
  declare organizationId: string;
  declare type: NotificationChannelType;
  declare name: string;
  declare target: string;
  declare createdAt: Date;
}
