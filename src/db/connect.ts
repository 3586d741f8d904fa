/**
 * Chooses the database: DATABASE_URL when set, otherwise the embedded cluster (creating database `skiff`).
 */
import pg from "pg";
import type { Config } from "../config.ts";
import type { SupervisorLog } from "./embedded.ts";

/** Where the application database is and how to release it. */
export interface DatabaseTarget {
  url: string;
  embedded: boolean;
  stop(): Promise<void>;
}

/**
 * Resolves the application database URL, starting the embedded server when needed. The embedded code is
 * imported only then, so that nothing of it is loaded when DATABASE_URL is set. `stop()` stops the embedded
 * server (call it last, after every pool is closed); with DATABASE_URL it does nothing. The embedded server is
 * supervised when `log` is given (the server: restarted when its postmaster dies, reported there; short-lived tools
 * pass none); a DATABASE_URL server is waited for instead, by the pools' own reconnects.
 */
export async function resolveDatabase(config: Config, log?: SupervisorLog): Promise<DatabaseTarget> {
  if (config.DATABASE_URL) return { url: config.DATABASE_URL, embedded: false, stop: async () => {} };
  const { startEmbeddedPostgres } = await import("./embedded.ts");
  const server = await startEmbeddedPostgres(config.SKIFF_DATA_DIR, config.SKIFF_EMBEDDED_PG_PORT, {
    ...(log && { supervise: { log } }),
  });
  const url = await ensureDatabase(server.url, "skiff");
  return { url, embedded: true, stop: server.stop };
}

/**
 * Creates database `name` on the server of `adminUrl` when it does not exist.
 * @returns the URL of that database.
 */
export async function ensureDatabase(adminUrl: string, name: string, template?: string): Promise<string> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const found = await client.query("select 1 from pg_database where datname = $1", [name]);
    if (found.rowCount === 0) {
      const from = template ? ` template ${pg.escapeIdentifier(template)}` : "";
      await client.query(`create database ${pg.escapeIdentifier(name)}${from}`);
    }
  } finally {
    await client.end();
  }
  return withDatabase(adminUrl, name);
}

/** Returns `url` pointing at database `name` instead. */
export function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}
