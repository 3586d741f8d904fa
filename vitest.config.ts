import { createRequire } from "node:module";
import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";
import DurationSequencer from "./test/helpers/sequencer.ts";

// Node resolves `graphql` to its CommonJS build (no "exports" map); Vite would pick the ESM build for
// test files while CommonJS dependencies (@apollo/subgraph) load the other one: two realms of graphql.
const graphqlMain = createRequire(import.meta.url).resolve("graphql");

/** The tests of pure code: no PostgreSQL, no server, no global setup (the `unit` project). */
const UNIT_TESTS = "test/**/*.unit.test.ts";

/**
 * Two projects, one run: `npm test` runs both, every file once.
 * - `unit`: the tests of pure code (files named `*.unit.test.ts`: parsers, validation, manifest rendering, filters,
 *   SQL and body writers): no global setup, no PostgreSQL; `npm run test:unit` runs only these, in seconds.
 * - `suite`: every other test file, against a real PostgreSQL: DATABASE_URL's server when set, otherwise an embedded
 *   one. test/helpers/global-setup.ts migrates a template database once; every test file clones its own.
 */
export default defineConfig({
  resolve: { alias: [{ find: /^graphql$/, replacement: graphqlMain }] },
  test: {
    // A test's own waits carry their bounds; this one only catches a hang, with room for four files at a time on
    // two cores of a slow host.
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: "forks",
    // A worker process runs its files one after another with the modules it has imported already: importing the
    // server's module graph cost each file ~2 s of CPU, half of the suite's CPU. Each file still has its own
    // database, servers and ports; what test helpers keep at module level is reset per file
    // (test/helpers/per-file-setup.ts); a test that needs a process with nothing in its module-level state (the
    // metrics registry's first scrape) spawns `src/main.ts` (test/helpers/process.ts).
    isolate: false,
    fileParallelism: true,
    // Longest files first (recorded durations): one started last would be the run's tail.
    sequence: { sequencer: DurationSequencer },
    // Test files mostly wait (on PostgreSQL, child servers, timers, kill signals): Vitest's default, cores − 1,
    // ran them one at a time on a 2-core machine (586 s; four at a time: 277 s). Each file keeps its own database,
    // ports and servers; four worker processes share the files.
    maxWorkers: Math.max(4, availableParallelism() - 1),
    projects: [
      { extends: true, test: { name: "unit", include: [UNIT_TESTS] } },
      {
        extends: true,
        test: {
          name: "suite",
          include: ["test/**/*.test.ts"],
          exclude: [UNIT_TESTS],
          globalSetup: ["test/helpers/global-setup.ts", "test/web/build-setup.ts"],
          setupFiles: ["test/helpers/per-file-setup.ts"],
        },
      },
    ],
  },
});
