/**
 * `npm run migrate`: applies pending migrations (ours, then graphile-worker's job queue schema) to DATABASE_URL, or to the embedded PostgreSQL under
 * SKIFF_DATA_DIR when DATABASE_URL is unset (the server also migrates on every start).
 */
import { type Config, ConfigError, loadConfig } from "../src/config.ts";
import { resolveDatabase } from "../src/db/connect.ts";
import { createKnex, migrateLatest } from "../src/db/knex.ts";
import { migrateJobSchema } from "../src/jobs/job-schema.ts";

let config: Config;
try {
  config = loadConfig();
} catch (error) {
  // A wrong configuration: its message names every wrong variable; a stack trace would only bury it.
  if (!(error instanceof ConfigError)) throw error;
  process.stderr.write(`${error.message}\n`);
  process.exit(1);
}
const database = await resolveDatabase(config);
const knex = createKnex(database.url);
try {
  const applied = await migrateLatest(knex);
  await migrateJobSchema(database.url);
  process.stdout.write(applied.length ? `Applied:\n  ${applied.join("\n  ")}\n` : "Already up to date.\n");
} finally {
  await knex.destroy();
  await database.stop();
}
