/**
 * The order test files start in. The suite is bound by its longest files when they start late: a file that waits
 * for a cron tick or a killed process (a minute or more of mostly idle time) started last makes the run that much
 * longer. Files are started longest first, by the duration Vitest cached from an earlier run on this checkout, else
 * by the one recorded in test/durations.json (`npm run test:durations` after a full run), else larger files first
 * (Vitest's own rule).
 */
import { readFileSync } from "node:fs";
import { relative } from "node:path";
import { BaseSequencer, type TestSpecification } from "vitest/node";

/** Seconds per test file (path relative to the repository), from test/durations.json; empty when it is missing. */
function recordedDurations(): Record<string, number> {
  try {
    return JSON.parse(readFileSync(new URL("../durations.json", import.meta.url), "utf8")) as Record<string, number>;
  } catch {
    return {};
  }
}

/** Vitest's sequencer with recorded durations for files this checkout has not run yet. */
export default class DurationSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const recorded = recordedDurations();
    const root = this.ctx.config.root;
    const seconds = (spec: TestSpecification): number | undefined => {
      const file = relative(root, spec.moduleId);
      const cached = this.ctx.cache.getFileTestResults(`${spec.project.name}:${file}`);
      return cached ? cached.duration / 1000 : recorded[file];
    };
    const bySize = await super.sort(files);
    const rank = new Map(bySize.map((spec, i) => [spec, i]));
    return [...files].sort((a, b) => {
      const da = seconds(a);
      const db = seconds(b);
      if (da !== undefined && db !== undefined && da !== db) return db - da;
      if (da !== undefined && db === undefined) return -1;
      if (db !== undefined && da === undefined) return 1;
      return rank.get(a)! - rank.get(b)!;
    });
  }
}
