/**
 * Knex CLI configuration (`npx knex migrate:latest`); the server migrates on start by itself.
 * Uses DATABASE_URL; without it, start the server once so the embedded cluster exists.
 */
import { migrationConfig } from "./src/db/knex.ts";

export default {
  client: "pg",
  connection: process.env.DATABASE_URL ?? "postgres://postgres:postgres@127.0.0.1:54329/skiff",
  migrations: migrationConfig,
};
