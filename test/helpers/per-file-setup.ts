/**
 * Runs before each test file (vitest `setupFiles`). A worker process runs its files one after another with the
 * modules it has imported already (`isolate: false` in vitest.config.ts), so state that test helpers keep at module
 * level is reset here for each file: the job fixture's record of handler runs.
 */
import { afterAll, beforeAll } from "vitest";
import { runs } from "../jobs/job-fixture.ts";
import { takeNested } from "./nested-pool-use.ts";

beforeAll(() => {
  runs.splice(0);
  takeNested();
});

afterAll(() => {
  const stacks = takeNested();
  if (stacks.length) {
    throw new Error(`${stacks.length} pooled connection(s) taken inside a transaction:\n${stacks.join("\n----\n")}`);
  }
});
