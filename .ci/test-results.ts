/**
 * Reads Vitest's JSON report (`--reporter=json --outputFile.json=<file>`) of a CI run: prints the totals as
 * `tally: <passed> <failed> <skipped>` (skipped = every test that did not run: skipped, todo or pending), lists
 * each test that did not run, and exits 1 when one of them is not on {@link ALLOWED} or when a file's own code
 * failed (an error outside any test), 0 otherwise. Failed tests are Vitest's own exit status, not this script's.
 *
 * Usage: node .ci/test-results.ts <report.json>
 */
import { readFileSync } from "node:fs";
import { relative } from "node:path";

/** One test that may be left unrun in CI: its file (relative to the repository), its full name, and why. */
interface AllowedSkip {
  file: string;
  /** Vitest's full name: the describe blocks' names and the test's, joined by spaces. */
  fullName: string;
  why: string;
}

/**
 * Tests CI may leave unrun. Each entry says why running it in CI is impossible, not merely inconvenient: a test
 * skipped for want of a program is fixed by installing the program in .ci/run (Chromium, PgBouncer, kubectl are).
 * Empty: every test runs in CI.
 */
const ALLOWED: readonly AllowedSkip[] = [];

interface Report {
  numPassedTests: number;
  numFailedTests: number;
  testResults: Array<{
    name: string;
    status: string;
    message: string;
    assertionResults: Array<{ fullName: string; status: string }>;
  }>;
}

const path = process.argv[2];
if (!path) {
  console.error("usage: node .ci/test-results.ts <vitest-report.json>");
  process.exit(2);
}
const report = JSON.parse(readFileSync(path, "utf8")) as Report;
const unrun: string[] = [];
const refused: string[] = [];
const fileErrors: string[] = [];
for (const file of report.testResults) {
  const name = relative(process.cwd(), file.name);
  if (file.status === "failed" && file.message) fileErrors.push(`${name}: ${file.message}`);
  for (const test of file.assertionResults) {
    if (test.status === "passed" || test.status === "failed") continue;
    const line = `${test.status}: ${name} > ${test.fullName}`;
    const allowed = ALLOWED.find((a) => a.file === name && a.fullName === test.fullName);
    unrun.push(allowed ? `${line} (allowed: ${allowed.why})` : line);
    if (!allowed) refused.push(line);
  }
}
if (unrun.length) console.log(`tests that did not run (${unrun.length}):\n  ${unrun.join("\n  ")}`);
if (fileErrors.length) console.log(`errors outside tests:\n  ${fileErrors.join("\n  ")}`);
if (refused.length) {
  console.log(
    `${refused.length} test(s) did not run and are not on the allow-list in .ci/test-results.ts: ` +
      "install what they need in .ci/run, or allow them there with the reason",
  );
}
console.log(`tally: ${report.numPassedTests} ${report.numFailedTests} ${unrun.length}`);
process.exit(refused.length || fileErrors.length ? 1 : 0);
