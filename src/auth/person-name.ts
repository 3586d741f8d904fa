/**
 * A person's own name (better-auth's `user.name`) follows the rule of every name people read
 * (`nameText` in src/shared/input-fields.ts, as `signUpWithInvitation` applies it): one line of 1 to 100 characters,
 * trimmed, in Unicode normalization form C, without control or invisible characters. It is applied where better-auth
 * writes a user row — sign-up, `/update-user`, an OAuth sign-up's profile name, server-side `auth.api` calls, the
 * first run's owner — so the stored name is the rule's output and a name the rule refuses is never written.
 */
import type { BetterAuthPlugin } from "@better-auth/core";
import { APIError, createAuthMiddleware } from "better-auth/api";
import { nameText } from "../shared/input-fields.ts";

const rule = nameText(100);

/**
 * `name` as it is stored: trimmed and in NFC.
 * @throws APIError 400 `INVALID_INPUT_VALUE`, message `Invalid name: <the rule's reason>`, when the rule refuses it
 * (missing, not a string, empty once trimmed, over 100 characters, control characters — NUL included, which
 * PostgreSQL cannot store — or invisible ones).
 */
export function personName(name: unknown): string {
  const checked = rule.safeParse(name);
  if (checked.success) return checked.data;
  throw new APIError("BAD_REQUEST", {
    message: `Invalid name: ${checked.error.issues[0]!.message}`,
    code: "INVALID_INPUT_VALUE",
  });
}

/**
 * The name of an account an OAuth provider creates: the profile's name by {@link personName}; when the provider
 * sent none or one the rule refuses, the address's local part (`ada` of `ada@example.com`), so that a sign-in is
 * never refused for what the person cannot change at the provider (they rename themselves afterwards).
 */
function providerName(name: unknown, email: unknown): string {
  try {
    return personName(name);
  } catch {
    const local = typeof email === "string" ? email.split("@")[0] : undefined;
    const fallback = rule.safeParse(local);
    return fallback.success ? fallback.data : "User";
  }
}

/**
 * The plugin. Its database hooks store {@link personName}'s output on every user create and on every update that
 * sets a name (a refusal aborts the write: 400 on the endpoint); an account created by an OAuth callback takes
 * {@link providerName}. `/sign-up/email` also gets the stored name in its body before better-auth reads it,
 * so the answer for an address that already has an account (a made-up user) shows the name as a new account's
 * does, and a refused name is answered before any other hook acts (the pending account of the address is kept).
 */
export function personNames() {
  return {
    id: "skiff-person-names",
    init: () => ({
      options: {
        databaseHooks: {
          user: {
            create: {
              before: async (user, ctx) => {
                const fromProvider = ctx?.path?.startsWith("/callback/") || ctx?.path?.startsWith("/oauth2/callback/");
                const name = fromProvider ? providerName(user.name, user.email) : personName(user.name);
                return { data: { ...user, name } };
              },
            },
            update: {
              before: async (user: { name?: unknown }) => {
                if (user.name !== undefined) return { data: { ...user, name: personName(user.name) } };
              },
            },
          },
        },
      },
    }),
    hooks: {
      before: [
        {
          matcher: (ctx) => ctx.path === "/sign-up/email",
          handler: createAuthMiddleware(async (ctx) => {
            const body = ctx.body as Record<string, unknown> | undefined;
            if (!body || typeof body !== "object" || Array.isArray(body)) return; // better-auth refuses it itself
            return { context: { body: { ...body, name: personName(body.name) } } };
          }),
        },
      ],
    },
  } satisfies BetterAuthPlugin;
}
