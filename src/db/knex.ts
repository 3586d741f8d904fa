/**
 * The Knex instance (PostgreSQL via `pg`) and Objection binding.
 * Columns are snake_case in SQL and camelCase in code (knexSnakeCaseMappers).
 */
import knexFactory, { type Knex } from "knex";
import { knexSnakeCaseMappers, Model } from "objection";
import pg from "pg";

// int8 (count(*), bigint ids) as JS numbers: all our counts fit in 2^53.
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number.parseInt(v, 10));

/** Where Knex's own messages go (a pino logger fits); without one, Knex writes them to the console. */
export interface KnexLog {
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
  debug(obj: object, msg: string): void;
}

/**
 * Builds a Knex instance for `url` and binds Objection models to it. With `log`, Knex's warnings (a failed
 * connection attempt during a database outage, …) are log lines instead of console output.
 */
export function createKnex(url: string, pool: { min?: number; max?: number } = {}, log?: KnexLog): Knex {
  const knex = knexFactory({
    client: "pg",
    connection: url,
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
  Model.knex(knex);
  return knex;
}

/** Knex migration settings shared by start-up, tests and `knexfile.ts`. */
export const migrationConfig: Knex.MigratorConfig = {
  directory: new URL("../../migrations", import.meta.url).pathname,
  loadExtensions: [".ts"],
  tableName: "knex_migrations",
};

/** Applies every pending migration. @returns names of the migrations applied. */
export async function migrateLatest(knex: Knex): Promise<string[]> {
  const [, applied] = (await knex.migrate.latest(migrationConfig)) as [number, string[]];
  return applied;
}

/** True when no migration is pending (used by /readyz). */
export async function migrationsCurrent(knex: Knex): Promise<boolean> {
  const [, pending] = (await knex.migrate.list(migrationConfig)) as [unknown[], unknown[]];
  return pending.length === 0;
}
