/**
 * Account API keys (spec: Authentication → Site import API, rules 1–4): created with a name, the secret shown
 * once and stored hashed (better-auth's api-key plugin, bound to the organization the request acts on by
 * src/auth/api-key-organization.ts); deleted by their creator, or by an owner or admin of the organization;
 * deletion takes effect on the next request (src/auth/credentials/api-key.ts looks every key up in the database).
 */

import type { Knex } from "knex";
import { z } from "zod";
import { assertCan, assertSignedIn, can } from "../../auth/access/policy.ts";
import { API_KEY_NAME_LENGTH, API_KEY_PREFIX, API_KEY_START_LENGTH } from "../../auth/auth.ts";
import { hashApiKey } from "../../auth/credentials/api-key.ts";
import { publishAccessChange } from "../../shared/access-changes.ts";
import { NotFoundError } from "../../shared/errors.ts";
import type { DomainEventData } from "../../shared/events/catalogue.ts";
import { nameText } from "../../shared/input-fields.ts";
import { parseInput } from "../../shared/validate.ts";
import { Member, organizationAccess } from "../access/index.ts";
import { writeWithAuditEntry } from "../audit/index.ts";
import type { Context } from "../context.ts";
import type { DomainEvent, EventContext } from "../events.ts";
import { ApiKey } from "./api-key.model.ts";

const nameInput = z.object({ name: nameText(API_KEY_NAME_LENGTH.max) });

/** `createApiKey`'s answer: the plaintext secret (shown once) and the stored key. */
export interface CreatedApiKey {
  secret: string;
  apiKey: ApiKey;
}

/**
 * `createApiKey`: a key of the caller bound to the organization the request acts on. A key made while the caller is
 * removed from the organization does not outlive the membership: it is kept only if the membership still stands
 * once the key is written (its row locked meanwhile, so a removal in progress finishes first and deletes the
 * person's keys after it).
 * Only a signed-in person makes keys (spec: Authentication, rules 1 and 4): a key made by a key would outlive it.
 * @throws BadUserInputError (name; no active organization), NotFoundError (no longer a member), ForbiddenError (an
 * API key or agent token calling).
 */
export async function createApiKey(ctx: Context, rawName: string): Promise<CreatedApiKey> {
  const access = await organizationAccess(ctx.scope);
  assertSignedIn(ctx.caller!, "apiKey:create");
  const { name } = parseInput(nameInput, { name: rawName });
  const userId = ctx.caller!.userId;
  const gone = () => new NotFoundError("Organization", access.organizationId);
  const created = await ctx.services.auth.api
    .createApiKey({ body: { name, userId, organizationId: access.organizationId } })
    .catch((error: unknown) => {
      // The membership ended between the request's authentication and the key's creation.
      if ((error as { body?: { code?: string } }).body?.code === "NOT_A_MEMBER") throw gone();
      throw error;
    });
  // better-auth writes the key on its own pool; this transaction confirms the membership with the key. The call's
  // audit entry follows it and names the key the call answers (docs/audit-log.md).
  const apiKey = await ctx.knex.transaction(async (trx) => {
    const member = await Member.query(trx).findOne({ organizationId: access.organizationId, userId }).forShare();
    if (!member) {
      await ApiKey.query(trx).deleteById(created.id);
      return null;
    }
    return ApiKey.query(trx).findById(created.id);
  });
  if (!apiKey) throw gone();
  return { secret: created.key, apiKey };
}

/**
 * `deleteApiKey`. @returns the id.
 * @throws NotFoundError (unknown, another organization's, or another member's key for a member),
 * ForbiddenError (an admin deleting the owner's key).
 */
export async function deleteApiKey(ctx: Context, id: string): Promise<string> {
  const key = await ApiKey.query(ctx.knex).findById(id);
  const access = key ? await ctx.scope.forOrg(key.organizationId) : null;
  const own = key?.referenceId === ctx.caller?.userId;
  if (!key || !access || !(own || can(access, "apiKey:manage-others"))) throw new NotFoundError("ApiKey", id);
  const creator = await Member.query(ctx.knex).findOne({ organizationId: key.organizationId, userId: key.referenceId });
  assertCan(access, "apiKey:delete", { own, creatorRole: creator?.role ?? null });
  // Of concurrent deletes of one key, the one whose statement removed the row answers; the others find it gone.
  const deleted = await writeWithAuditEntry(ctx, ApiKey.query(ctx.knex).deleteById(id).returning("id"));
  if (deleted.length === 0) throw new NotFoundError("ApiKey", id);
  await publishAccessChange(ctx.services.pubsub, { apiKeyId: id }, ctx.log);
  return id;
}

/**
 * Consumer of domain events (the manifest's `onEvent`, in the emitter's transaction): when a person leaves an
 * organization (`user_removed_from_org`), their API keys bound to it are deleted, so that nothing of theirs works
 * there any more — not even after a later re-invitation (spec: API keys; the team module emits, never touches
 * this module's table).
 */
export async function onApiKeyEvent(ctx: EventContext, event: DomainEvent): Promise<void> {
  if (event.kind !== "webhook" || event.name !== "user_removed_from_org") return;
  const { user } = event.data as DomainEventData<"user_removed_from_org">;
  await ApiKey.query(ctx.knex).where({ referenceId: user.user_uuid, organizationId: event.organizationId }).delete();
}

/**
 * Makes `plaintext` the secret of key `id` (stored hashed, its first characters kept as `start`, like every key):
 * the first run's `SKIFF_BOOTSTRAP_API_KEY`. `prefix` is `skiff_` only when the given key starts with it.
 */
export async function replaceApiKeySecret(knex: Knex, id: string, plaintext: string): Promise<void> {
  const prefix = plaintext.startsWith(API_KEY_PREFIX) ? API_KEY_PREFIX : null;
  await ApiKey.query(knex)
    .findById(id)
    .patch({ key: hashApiKey(plaintext), start: plaintext.slice(0, API_KEY_START_LENGTH), prefix });
}
