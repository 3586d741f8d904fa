/**
 * The Knex instance (PostgreSQL via `pg`) and Objection binding.
 * Columns are snake_case in SQL and camelCase in code (knexSnakeCaseMappers).
 */
import { readdirSync } from "node:fs";
import knexFactory, { type Knex } from "knex";
import { knexSnakeCaseMappers, Model } from "objection";
import pg from "pg";
import { messageSocket } from "./message-socket.ts";
import { UnnamedStatementsClient } from "./prepared-statements.ts";

// int8 (count(*), bigint ids) as JS numbers: all our counts fit in 2^53.
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number.parseInt(v, 10));

/** Where Knex's own messages go (a pino logger fits); without one, Knex writes them to the console. */
export interface KnexLog {
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
  debug(obj: object, msg: string): void;
}

/**
 * Builds a Knex instance for `url` and binds Objection models to it. `pool`: its size, and `unnamedStatements`:
 * every statement sent unnamed, whoever names it (rate-limiter-flexible's agent limiter does; see
 * prepared-statements.ts — for a transaction-mode pooler). With `log`, Knex's warnings (a failed connection attempt
 * during a database outage, …) are log lines instead of console output.
 */
export function createKnex(
  url: string,
  pool: { min?: number; max?: number; unnamedStatements?: boolean } = {},
  log?: KnexLog,
): Knex {
  const knex = knexFactory({
    client: "pg",
    // Each connection's socket hands pg whole protocol messages (message-socket.ts: memory under large answers).
    connection: { connectionString: url, stream: messageSocket } satisfies Knex.PgConnectionConfig,
    pool: { min: pool.min ?? 0, max: pool.max ?? 10 },
    ...(log && {
      log: {
        warn: (message: unknown) => log.warn({ component: "knex" }, String(message)),
        error: (message: unknown) => log.error({ component: "knex" }, String(message)),
        deprecate: (method: string, alternative: string) =>
          log.debug({ component: "knex" }, `${method} is deprecated; use ${alternative}`),
        debug: (message: unknown) => log.debug({ component: "knex" }, String(message)),
      },
    }),
    ...knexSnakeCaseMappers(),
  });
  if (pool.unnamedStatements) {
    // Knex makes its connections with `driver.Client` (lazily: the pool starts empty).
    const client = knex.client as { driver: typeof pg };
    client.driver = Object.assign(Object.create(client.driver), { Client: UnnamedStatementsClient });
  }
  Model.knex(knex);
  return knex;
}

/** Knex migration settings shared by start-up, tests and `knexfile.ts`. */
export const migrationConfig: Knex.MigratorConfig = {
  directory: new URL("../../migrations", import.meta.url).pathname,
  loadExtensions: [".ts"],
  tableName: "knex_migrations",
};

/** Key of the session advisory lock {@link migrateLatest} holds (any constant no other code uses). */
export const MIGRATION_LOCK_KEY = 7_346_118_262;

/**
 * Applies every pending migration, one migrating process at a time: several instances (and the migration Job of
 * deploy/) may start together. Knex's own lock (`knex_migrations_lock`, taken inside the batch's transaction: a
 * second batch waits for the first to commit, then finds nothing pending) serialises batches only once its tables
 * exist; on an empty database their check-then-create races. A PostgreSQL session advisory lock, held on one pooled
 * connection for the whole run, serialises both; it is released by the server if the process dies. The lock needs
 * a session connection (not a transaction-mode pooler). @returns names of the migrations applied.
 */
export async function migrateLatest(knex: Knex): Promise<string[]> {
  const connection = await knex.client.acquireConnection();
  try {
    await knex.raw("select pg_advisory_lock(?)", [MIGRATION_LOCK_KEY]).connection(connection);
    await refuseNewerMigrations(knex);
    const [, applied] = (await knex.migrate.latest(migrationConfig)) as [number, string[]];
    return applied;
  } finally {
    try {
      await knex.raw("select pg_advisory_unlock(?)", [MIGRATION_LOCK_KEY]).connection(connection);
    } catch {
      // the session ended: its lock went with it
    }
    await knex.client.releaseConnection(connection);
  }
}

/**
 * Refuses a database that holds migrations this code does not have (a newer Skiff migrated it: this one is older,
 * e.g. an upgrade rolled back), naming them and the ways back, instead of knex's "migration directory is corrupt".
 * @throws Error when there are such migrations.
 */
async function refuseNewerMigrations(knex: Knex): Promise<void> {
  const table = migrationConfig.tableName as string;
  if (!(await migratedOnce(knex))) return;
  const known = new Set(readdirSync(migrationConfig.directory as string).filter((f) => f.endsWith(".ts")));
  const applied = (await knex(table).pluck("name")) as string[];
  const unknown = applied.filter((name) => !known.has(name));
  if (unknown.length === 0) return;
  throw new Error(
    `This database was migrated by a newer Skiff: it holds ${unknown.length} migration(s) this version does not have ` +
      `(${unknown.join(", ")}). Run the newer version, undo them with it first (docs/operations.md, Upgrades), or ` +
      "restore the backup taken before the upgrade.",
  );
}

/** True when Skiff has migrated this database at least once (its migrations table exists). */
export async function migratedOnce(knex: Knex): Promise<boolean> {
  const { rows } = await knex.raw<{ rows: Array<{ table: string | null }> }>("select to_regclass(?)::text as table", [
    migrationConfig.tableName as string,
  ]);
  return Boolean(rows[0]?.table);
}

/** True when no migration is pending (used by /readyz). */
export async function migrationsCurrent(knex: Knex): Promise<boolean> {
  const [, pending] = (await knex.migrate.list(migrationConfig)) as [unknown[], unknown[]];
  return pending.length === 0;
}
