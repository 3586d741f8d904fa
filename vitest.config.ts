import { defineConfig } from "vitest/config";

/**
 * Tests run against a real PostgreSQL: DATABASE_URL's server when set, otherwise an embedded one.
 * test/helpers/global-setup.ts migrates a template database once; every test file clones its own.
 */
export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    globalSetup: ["test/helpers/global-setup.ts"],
    testTimeout: 30_000,
    hookTimeout: 120_000,
    pool: "forks",
    fileParallelism: true,
  },
});
