/**
 * Session tokens are stored hashed: `sessions.token` holds the SHA-256 (lowercase hex) of the
 * token that the signed cookie carries, so a copy of the table (a backup, a read-only leak) holds no usable token.
 *
 * better-auth 1.7 has no option for it; it reads and writes sessions by token only through its database adapter
 * (`internalAdapter` in better-auth/dist/db/internal-adapter.mjs: createSession, findSession, findSessions,
 * updateSession, deleteSession, deleteSessions). {@link hashingSessionTokens} wraps the adapter: a session written
 * is stored with the hash, every `where token …` of the session model is compared with the hash, and a row found
 * by its token is returned with the token it was looked up with (so cookie refreshes keep the real token). Rows
 * found otherwise (`/list-sessions`, by user) carry the stored hash: an identifier, not a credential.
 * {@link sessionRevocationByHash} makes the two endpoints that act on listed tokens work with it:
 * `/revoke-session` accepts the listed (hashed) value, `/revoke-other-sessions` keeps the current session by id.
 * Not covered: better-auth's `secondaryStorage` (keys are tokens there; Skiff configures none).
 */
import { createHash } from "node:crypto";
import type { BetterAuthPlugin } from "@better-auth/core";
import type { DBAdapter, DBTransactionAdapter, Where } from "better-auth";
import { createAuthMiddleware, getSessionFromCtx } from "better-auth/api";
import type pg from "pg";

/** better-auth's model name of sessions (before `modelName` mapping). */
const SESSION_MODEL = "session";

/** The stored form of a token: 64 lowercase hex digits (better-auth's tokens are 32 letters and digits). */
const STORED = /^[0-9a-f]{64}$/;

/** The value stored in `sessions.token` for session token `token`: SHA-256, lowercase hex. */
export function hashSessionToken(token: string): string {
  return createHash("sha256").update(token, "utf8").digest("hex");
}

type Row = Record<string, unknown>;

/** Plain tokens by their hash, for the rows a call finds by token. */
type Plain = Map<string, string>;

function hashValue(value: Where["value"], plain: Plain): Where["value"] {
  const one = (v: string) => {
    const h = hashSessionToken(v);
    plain.set(h, v);
    return h;
  };
  if (typeof value === "string") return one(value);
  if (Array.isArray(value) && value.every((v) => typeof v === "string")) return (value as string[]).map(one);
  return value;
}

function hashWhere(model: string, where: Where[] | undefined, plain: Plain): Where[] | undefined {
  if (model !== SESSION_MODEL || !where) return where;
  return where.map((w) => (w.field === "token" ? { ...w, value: hashValue(w.value, plain) } : w));
}

function hashData<T extends Row>(model: string, data: T, plain: Plain): T {
  if (model !== SESSION_MODEL || typeof data.token !== "string") return data;
  return { ...data, token: hashValue(data.token, plain) };
}

function restore<T>(row: T, plain: Plain): T {
  if (!row || typeof row !== "object") return row;
  const token = (row as Row).token;
  if (typeof token === "string" && plain.has(token)) return { ...row, token: plain.get(token) };
  return row;
}

/**
 * `adapter` storing session tokens hashed (see the file comment); every other model and field passes unchanged.
 * Transactions hand out wrapped adapters too.
 */
export function hashingSessionTokens<A extends DBTransactionAdapter | DBAdapter>(adapter: A): A {
  const wrapped: DBTransactionAdapter = {
    ...adapter,
    async create<T extends Row, R = T>(args: Parameters<DBAdapter["create"]>[0]) {
      const plain: Plain = new Map();
      const created = await adapter.create<T, R>({
        ...args,
        data: hashData(args.model, args.data as Row, plain) as Omit<T, "id">,
      });
      return restore(created, plain);
    },
    async findOne(args) {
      const plain: Plain = new Map();
      return restore(await adapter.findOne({ ...args, where: hashWhere(args.model, args.where, plain)! }), plain);
    },
    async findMany<T>(args: Parameters<DBAdapter["findMany"]>[0]) {
      const plain: Plain = new Map();
      const rows = await adapter.findMany<T>({ ...args, where: hashWhere(args.model, args.where, plain) });
      return rows.map((r) => restore(r, plain));
    },
    count: (args) => adapter.count({ ...args, where: hashWhere(args.model, args.where, new Map()) }),
    async update(args) {
      const plain: Plain = new Map();
      const where = hashWhere(args.model, args.where, plain)!;
      return restore(await adapter.update({ ...args, where, update: hashData(args.model, args.update, plain) }), plain);
    },
    updateMany: (args) => {
      const plain: Plain = new Map();
      const where = hashWhere(args.model, args.where, plain)!;
      return adapter.updateMany({ ...args, where, update: hashData(args.model, args.update, plain) });
    },
    delete: (args) => adapter.delete({ ...args, where: hashWhere(args.model, args.where, new Map())! }),
    deleteMany: (args) => adapter.deleteMany({ ...args, where: hashWhere(args.model, args.where, new Map())! }),
    async consumeOne(args) {
      const plain: Plain = new Map();
      return restore(await adapter.consumeOne({ ...args, where: hashWhere(args.model, args.where, plain)! }), plain);
    },
    async incrementOne(args) {
      const plain: Plain = new Map();
      const where = hashWhere(args.model, args.where, plain)!;
      return restore(await adapter.incrementOne({ ...args, where }), plain);
    },
  };
  if ("transaction" in adapter) {
    const full = adapter as DBAdapter;
    return {
      ...wrapped,
      transaction: (callback) => full.transaction((trx) => callback(hashingSessionTokens(trx))),
    } as DBAdapter as A;
  }
  return wrapped as A;
}

/**
 * The plugin completing `/revoke-session` and `/revoke-other-sessions` when tokens are stored hashed: after
 * better-auth's own handling (session checks included), a listed (hashed) token given to `/revoke-session` ends
 * that session of the caller, and `/revoke-other-sessions` ends every session of the caller but the current one.
 * Writes through `pool` (the auth pool), by user and hash or id.
 */
export function sessionRevocationByHash(pool: pg.Pool) {
  const succeeded = (returned: unknown) =>
    !!returned && typeof returned === "object" && (returned as { status?: unknown }).status === true;
  return {
    id: "skiff-session-revocation-by-hash",
    hooks: {
      after: [
        {
          matcher: (ctx) => ctx.path === "/revoke-session" || ctx.path === "/revoke-other-sessions",
          handler: createAuthMiddleware(async (ctx) => {
            if (!succeeded(ctx.context.returned)) return;
            const current = await getSessionFromCtx(ctx);
            if (!current) return;
            if (ctx.path === "/revoke-other-sessions") {
              await pool.query("delete from sessions where user_id = $1 and id <> $2", [
                current.user.id,
                current.session.id,
              ]);
              return;
            }
            const token = (ctx.body as { token?: unknown } | undefined)?.token;
            if (typeof token === "string" && STORED.test(token)) {
              await pool.query("delete from sessions where user_id = $1 and token = $2", [current.user.id, token]);
            }
          }),
        },
      ],
    },
  } satisfies BetterAuthPlugin;
}
