/**
 * Binds every account API key to one organization (spec "Authentication / Site import API", rule 2:
 * "A key is bound to the organization that is active when it is created").
 *
 * The api-key plugin (1.7.5) has no organization column for user-owned keys and no `additionalFields`,
 * so this companion plugin
 * - adds the `organizationId` field (column `api_keys.organization_id`) to the plugin's `apikey` model;
 * - before `/api-key/create`, resolves the organization and checks the creator is a member of it:
 *   trusted server-side calls name it with `body.organizationId` (and `body.userId` when there is no session) —
 *   GraphQL `createApiKey` passes the caller's active organization this way; a call with only a session gets
 *   the session's active organization (or, when none is set, the first membership). The HTTP path
 *   `/api/auth/api-key/create` itself is switched off (DISABLED_AUTH_PATHS);
 * - fills the column in the same INSERT the api-key plugin issues, through the field's input transform,
 *   which reads the checked value from better-auth's current endpoint context.
 * A key can therefore never be stored without its organization (the column is also NOT NULL).
 */
import type { BetterAuthPlugin } from "@better-auth/core";
import { tryGetCurrentAuthEndpointContext } from "@better-auth/core/context";
import { APIError, createAuthMiddleware, getSessionFromCtx } from "better-auth/api";

const CREATE_PATH = "/api-key/create";

/** Body fields of `/api-key/create` this plugin reads or sets. */
interface CreateBody {
  userId?: string;
  organizationId?: string;
}

/** The organization checked by the before hook for the `/api-key/create` call in progress, else null. */
function boundOrganizationId(): string | null {
  const ctx = tryGetCurrentAuthEndpointContext() as { path?: string; body?: CreateBody } | undefined;
  if (ctx?.path !== CREATE_PATH) return null;
  return ctx.body?.organizationId ?? null;
}

/**
 * The companion plugin; list it right after `apiKey(...)`.
 * Errors of `/api-key/create`: 401 without a session (or server-side `userId`),
 * 403 `NOT_A_MEMBER` when the creator has no membership in the chosen organization.
 */
export function apiKeyOrganization() {
  return {
    id: "skiff-api-key-organization",
    schema: {
      apikey: {
        modelName: "api_keys",
        fields: {
          organizationId: {
            type: "string",
            required: false,
            input: false,
            index: true,
            fieldName: "organization_id",
            references: { model: "organization", field: "id", onDelete: "cascade" },
            transform: { input: (value) => value ?? boundOrganizationId() },
          },
        },
      },
    },
    hooks: {
      before: [
        {
          matcher: (ctx) => ctx.path === CREATE_PATH,
          handler: createAuthMiddleware(async (ctx) => {
            const body = (ctx.body ?? {}) as CreateBody;
            const session = await getSessionFromCtx(ctx, { disableCookieCache: true });
            const userId = session?.user.id ?? (ctx.request ? undefined : body.userId);
            if (!userId) throw new APIError("UNAUTHORIZED", { message: "Sign in to create an API key" });
            const named = ctx.request ? null : (body.organizationId ?? null);
            const preferred = named ?? session?.session.activeOrganizationId ?? null;
            const members = await ctx.context.adapter.findMany<{ organizationId: string }>({
              model: "member",
              where: [
                { field: "userId", value: userId },
                ...(named ? [{ field: "organizationId", value: named }] : []),
              ],
              sortBy: { field: "createdAt", direction: "asc" },
            });
            const member = members.find((m) => m.organizationId === preferred) ?? (named ? undefined : members[0]);
            if (!member) {
              throw new APIError("FORBIDDEN", { message: "Not a member of the organization", code: "NOT_A_MEMBER" });
            }
            return { context: { body: { ...ctx.body, organizationId: member.organizationId } } };
          }),
        },
      ],
    },
  } satisfies BetterAuthPlugin;
}
