/** Notification channels of organizations (table `notification_channels`). */
import { BaseModel } from "../../db/base-model.ts";

/** Kinds of notification channel; only e-mail for now. */
export type NotificationChannelType = "email";

/** Where an organization's notifications go; `target` is an e-mail address for `email`. */
export class NotificationChannel extends BaseModel {
  static override tableName = "notification_channels";
  static override idKind = "notificationChannel" as const;
  declare organizationId: string;
  declare type: NotificationChannelType;
  declare name: string;
  declare target: string;
  declare createdAt: Date;
}
