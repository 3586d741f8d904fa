/**
 * Records each test file's duration (seconds, one decimal) from Vitest's JSON report into test/durations.json,
 * which the suite's sequencer reads to start the longest files first (test/helpers/sequencer.ts).
 *
 * Usage: npx vitest run --reporter=json --outputFile.json=/tmp/report.json && npm run test:durations -- /tmp/report.json
 */
import { readFileSync, writeFileSync } from "node:fs";
import { relative } from "node:path";

interface Report {
  testResults: Array<{ name: string; startTime: number; endTime: number }>;
}

/** `test/…` of a report's absolute path, whichever checkout ran it (a CI clone's report serves this one). */
function repositoryPath(name: string): string {
  const at = name.lastIndexOf("/test/");
  return at >= 0 ? name.slice(at + 1) : relative(process.cwd(), name);
}

const file = process.argv[2];
if (!file) {
  console.error("usage: npm run test:durations -- <vitest JSON report>");
  process.exit(2);
}
const report = JSON.parse(readFileSync(file, "utf8")) as Report;
const durations = Object.fromEntries(
  report.testResults
    .map((r) => [repositoryPath(r.name), Math.round((r.endTime - r.startTime) / 100) / 10] as const)
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])),
);
writeFileSync("test/durations.json", `${JSON.stringify(durations, null, 2)}\n`);
console.log(`test/durations.json: ${Object.keys(durations).length} files`);
