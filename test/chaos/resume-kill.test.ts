/**
 * In the suite: one run of the resume chaos (test/chaos/resume-chaos.ts): a client following live import status
 * across a SIGKILL of Skiff and a SIGKILL and restart of PostgreSQL, under concurrent publishing transactions, gets
 * every committed event once. `npm run chaos:db -- --resume N` repeats it.
 */
import { describe, expect, it } from "vitest";
import { runResumeChaos } from "./resume-chaos.ts";

describe("live status resumed across restarts", () => {
  it("0 gaps and 0 duplicates across a SIGKILL of Skiff and a PostgreSQL restart", async () => {
    const result = await runResumeChaos({ progress: (line) => console.info(`resume chaos: ${line}`) });
    console.info("resume chaos", JSON.stringify(result));
    expect(result.problems).toEqual([]);
    expect(result.committed).toBeGreaterThan(0);
    expect(result.gaps).toBe(0);
    expect(result.duplicates).toBe(0);
    expect(result.foreign).toBe(0);
    expect(result.connections).toBeGreaterThanOrEqual(3);
  }, 240_000);
});
