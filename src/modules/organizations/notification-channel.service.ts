/**
 * Notification channels of an organization (spec: an organization has notification channels). A minimal list:
 * e-mail addresses, added and removed by owners and admins, read by every member.
 */
import { z } from "zod";
import { assertCan } from "../../auth/access/policy.ts";
import { newId } from "../../db/ids.ts";
import { translateUniqueViolations } from "../../shared/constraint-errors.ts";
import { NotFoundError } from "../../shared/errors.ts";
import { nameText } from "../../shared/input-fields.ts";
import { parseInput } from "../../shared/validate.ts";
import { organizationAccess } from "../access/index.ts";
import { noteAuditTarget, writeModelsWithAuditEntry, writeWithAuditEntry } from "../audit/index.ts";
import type { Context } from "../context.ts";
import { NotificationChannel } from "./notification-channel.model.ts";

const addInput = z.object({
  organizationId: z.string(),
  name: nameText(100),
  email: z.string().trim().toLowerCase().email("Not an e-mail address").max(254),
});

/**
 * `addNotificationChannel`: an e-mail channel.
 * @throws NotFoundError, ForbiddenError (members), BadUserInputError, ConflictError (address already a channel).
 */
export async function addNotificationChannel(ctx: Context, raw: z.input<typeof addInput>) {
  const access = await organizationAccess(ctx.scope, { organizationId: raw.organizationId });
  assertCan(access, "notification:manage");
  const input = parseInput(addInput, raw);
  const id = newId(NotificationChannel.idKind);
  noteAuditTarget(ctx, id);
  const row = {
    id,
    organizationId: access.organizationId,
    type: "email" as const,
    name: input.name,
    target: input.email,
  };
  return translateUniqueViolations(
    async () => {
      const query = NotificationChannel.query(ctx.knex).insert(row).returning("*");
      const [added] = await writeModelsWithAuditEntry(ctx, NotificationChannel, query);
      return added!;
    },
    {
      notification_channels_organization_id_type_target_unique: {
        message: `${input.email} is already a notification channel`,
        field: "email",
      },
    },
  );
}

/** `removeNotificationChannel`. @returns the id. @throws NotFoundError (unknown or invisible), ForbiddenError. */
export async function removeNotificationChannel(ctx: Context, id: string): Promise<string> {
  const channel = await NotificationChannel.query(ctx.knex).findById(id);
  const access = channel ? await ctx.scope.forOrg(channel.organizationId) : null;
  if (!channel || !access) throw new NotFoundError("NotificationChannel", id);
  assertCan(access, "notification:manage");
  // Of concurrent removals, the one whose statement removed the row answers; the others find it gone.
  const removed = await writeWithAuditEntry(ctx, NotificationChannel.query(ctx.knex).deleteById(id).returning("id"));
  if (removed.length === 0) throw new NotFoundError("NotificationChannel", id);
  return id;
}
