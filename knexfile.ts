/**
 * Knex CLI configuration (`npx knex migrate:latest`, `npx knex migrate:down --knexfile knexfile.ts`); the server
 * migrates on start by itself. Uses DATABASE_URL; without it, the embedded PostgreSQL of SKIFF_DATA_DIR (default
 * `.data`) on SKIFF_EMBEDDED_PG_PORT (default 54329), with its stored password: a server started there must be
 * running (the command does not start the cluster).
 */
import { embeddedUrl } from "./src/db/embedded-password.ts";
import { migrationConfig } from "./src/db/knex.ts";

export default async () => ({
  client: "pg",
  connection:
    process.env.DATABASE_URL ||
    (await embeddedUrl(
      process.env.SKIFF_DATA_DIR || ".data",
      Number(process.env.SKIFF_EMBEDDED_PG_PORT || 54329),
      "skiff",
    )),
  migrations: migrationConfig,
});
