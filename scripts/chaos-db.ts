/**
 * `npm run chaos:db`: kills the real PostgreSQL postmaster under load again and again and prints a table
 * of runs (see test/chaos/db-chaos.ts for what one run does and checks). Exits 1 when any run found a problem.
 *
 * Arguments (all optional): `--rounds N` (default 5: each variant and outage N times), `--outages 500,2000,10000`
 * (ms), `--variants url,embedded`, `--long` (adds the 5-minute outage with SIGTERM during and right after it),
 * `--kill-skiff` (adds, per round and variant, a SIGKILL of Skiff itself mid-import and a restart 1 s later),
 * `--listen-loss N` (adds N runs of the LISTEN-loss sequence, test/chaos/listen-loss-chaos.ts: imports until
 * `--applications` (default 300) applications exist, SIGKILL of the embedded postmaster, every LISTEN backend
 * terminated, SIGKILL of Skiff and a restart on the same data; `--rounds 0 --listen-loss 3` runs only those),
 * `--resume N` (default 10: N runs of the resume sequence, test/chaos/resume-chaos.ts: a client following live import
 * status with its cursor across a SIGKILL of Skiff and a PostgreSQL kill and restart, concurrent publishing
 * transactions; each run must show 0 gaps and 0 duplicates; `--rounds 0 --resume 20` runs only those).
 */
import { parseArgs } from "node:util";
import { type ChaosOptions, type ChaosResult, runChaos, stopAllRuns } from "../test/chaos/db-chaos.ts";
import { type ListenLossResult, runListenLoss } from "../test/chaos/listen-loss-chaos.ts";
import { type ResumeChaosResult, runResumeChaos } from "../test/chaos/resume-chaos.ts";
import { createTestCa, removeTestCa } from "../test/helpers/test-ca.ts";

const { values } = parseArgs({
  options: {
    rounds: { type: "string", default: "5" },
    outages: { type: "string", default: "500,2000,10000" },
    variants: { type: "string", default: "url,embedded" },
    long: { type: "boolean", default: false },
    "kill-skiff": { type: "boolean", default: false },
    "listen-loss": { type: "string", default: "0" },
    applications: { type: "string", default: "300" },
    resume: { type: "string", default: "10" },
  },
});
process.on("unhandledRejection", (reason) => {
  console.error("harness: unhandled rejection", reason);
});
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, async () => {
    console.error(`${signal}: stopping the runs under way`);
    await stopAllRuns();
    process.exit(130);
  });
}
const tls = await createTestCa();
const plan: Array<Omit<ChaosOptions, "tls">> = [];
for (let round = 0; round < Number(values.rounds); round++) {
  for (const outageMs of values.outages.split(",").map(Number)) {
    for (const variant of values.variants.split(",") as ChaosOptions["variant"][]) plan.push({ variant, outageMs });
  }
}
if (values["kill-skiff"]) {
  for (let round = 0; round < Number(values.rounds); round++) {
    for (const variant of values.variants.split(",") as ChaosOptions["variant"][]) {
      plan.push({ variant, outageMs: 1000, kill: "skiff" });
    }
  }
}
if (values.long) {
  for (const variant of values.variants.split(",") as ChaosOptions["variant"][]) {
    plan.push({ variant, outageMs: 300_000 });
    plan.push({ variant, outageMs: 300_000, sigterm: "during" });
    plan.push({ variant, outageMs: 5000, sigterm: "after" });
  }
}

const header = [
  "run",
  "killed",
  "variant",
  "outage",
  "sigterm",
  "alive",
  "503s",
  "ready after",
  "pending",
  "import after",
  "imports",
  "webhooks (acc/deliv/lost/dup)",
  "attempts seen/logged",
  "sub",
  "signed-in reads (200/503)",
  "sign-in",
  "exit",
  "result",
];
const rows: string[][] = [];
const results: ChaosResult[] = [];
console.log(`${plan.length} runs`);
for (const [i, options] of plan.entries()) {
  const started = Date.now();
  const r = await runChaos({ ...options, tls, progress: (line) => console.log(`  [${i + 1}] ${line}`) });
  results.push(r);
  const w = r.webhooks;
  const row = [
    String(i + 1),
    r.kill,
    r.variant,
    `${r.outageMs / 1000}s`,
    r.sigterm,
    r.died ? `DIED ${r.died}` : "yes",
    String(r.readyDuringOutage.unavailable),
    r.readyAfterMs === null ? "-" : `${r.readyAfterMs}ms`,
    String(r.pending),
    r.importAfterMs === null ? "-" : `${r.importAfterMs}ms`,
    `${r.imports.answered}/${r.imports.started}`,
    `${w.accepted}/${w.delivered}/${w.lost}/${w.doubled}${w.cut ? ` (${w.cut} cut)` : ""}`,
    `${w.attemptsSeen}/${w.attemptsLogged}`,
    r.subscriptionResumed ? "yes" : "no",
    `${r.sessionReads.ok}/${r.sessionReads.unavailable}${r.sessionReads.okAfter ? "" : " (none after)"}`,
    r.signIn ? "yes" : "no",
    r.shutdown ? `${r.shutdown.code} in ${r.shutdown.ms}ms` : "-",
    r.problems.length ? `FAIL: ${r.problems.join("; ")}` : "ok",
  ];
  rows.push(row);
  console.log(`  [${i + 1}] ${row.join(" | ")} (${Math.round((Date.now() - started) / 1000)} s)`);
}
await removeTestCa(tls);

const listenRuns: ListenLossResult[] = [];
for (let i = 0; i < Number(values["listen-loss"]); i++) {
  const started = Date.now();
  const r = await runListenLoss({
    applications: Number(values.applications),
    progress: (line) => console.log(`  [listen ${i + 1}] ${line}`),
  });
  listenRuns.push(r);
  console.log(
    `  [listen ${i + 1}] ${r.problems.length ? `FAIL: ${r.problems.join("; ")}` : "ok"} (${Math.round((Date.now() - started) / 1000)} s)`,
  );
}

const resumeRuns: ResumeChaosResult[] = [];
for (let i = 0; i < Number(values.resume); i++) {
  const started = Date.now();
  const r = await runResumeChaos({ progress: (line) => console.log(`  [resume ${i + 1}] ${line}`) });
  resumeRuns.push(r);
  console.log(
    `  [resume ${i + 1}] ${r.committed} committed, ${r.received} received, ${r.gaps} gaps, ${r.duplicates} duplicates, ` +
      `${r.connections} connections: ${r.problems.length ? `FAIL: ${r.problems.join("; ")}` : "ok"} ` +
      `(${Math.round((Date.now() - started) / 1000)} s)`,
  );
}

console.log(`\n| ${header.join(" | ")} |\n|${header.map(() => "---").join("|")}|`);
for (const row of rows) console.log(`| ${row.join(" | ")} |`);
const deaths = results.filter((r) => r.died).length;
const lost = results.reduce((a, r) => a + r.webhooks.lost, 0);
const doubled = results.reduce((a, r) => a + r.webhooks.doubled, 0);
const stuck = results.reduce((a, r) => a + r.pending, 0);
if (listenRuns.length) {
  const head = [
    "run",
    "applications",
    "LISTEN killed",
    "import after",
    "next 8 s",
    "import after kill -9",
    "pending",
    "drained",
    "result",
  ];
  console.log(`\n| ${head.join(" | ")} |\n|${head.map(() => "---").join("|")}|`);
  for (const [i, r] of listenRuns.entries()) {
    const row = [
      String(i + 1),
      String(r.applications),
      String(r.terminated),
      `${r.afterListenLoss.status} in ${r.afterListenLoss.ms}ms`,
      `${r.following.answered}/${r.following.sent}`,
      `${r.afterRestart.status} in ${r.afterRestart.ms}ms`,
      String(r.pending),
      `${r.drainedMs}ms`,
      r.problems.length ? `FAIL: ${r.problems.join("; ")}` : "ok",
    ];
    console.log(`| ${row.join(" | ")} |`);
  }
}
if (resumeRuns.length) {
  const head = [
    "run",
    "committed",
    "received",
    "gaps",
    "duplicates",
    "connections",
    "resumed after (Skiff / PostgreSQL)",
    "result",
  ];
  console.log(`\n| ${head.join(" | ")} |\n|${head.map(() => "---").join("|")}|`);
  for (const [i, r] of resumeRuns.entries()) {
    const after = (ms: number | null) => (ms === null ? "-" : `${ms}ms`);
    const row = [
      String(i + 1),
      String(r.committed),
      String(r.received),
      String(r.gaps),
      String(r.duplicates),
      String(r.connections),
      `${after(r.resumedAfterMs.skiff)} / ${after(r.resumedAfterMs.postgres)}`,
      r.problems.length ? `FAIL: ${r.problems.join("; ")}` : "ok",
    ];
    console.log(`| ${row.join(" | ")} |`);
  }
}
const failed =
  results.filter((r) => r.problems.length).length +
  listenRuns.filter((r) => r.problems.length).length +
  resumeRuns.filter((r) => r.problems.length).length;
const ready = results
  .map((r) => r.readyAfterMs)
  .filter((ms): ms is number => ms !== null)
  .sort((a, b) => a - b);
console.log(
  `\n${results.length} runs: ${deaths} process deaths, ${lost} lost and ${doubled} doubled webhook attempts, ` +
    `${stuck} stuck imports; /readyz 200 after recovery: median ${ready[Math.floor(ready.length / 2)] ?? "-"} ms, ` +
    `max ${ready.at(-1) ?? "-"} ms; ${failed} runs with problems`,
);
if (resumeRuns.length) {
  const gaps = resumeRuns.reduce((a, r) => a + r.gaps, 0);
  const duplicates = resumeRuns.reduce((a, r) => a + r.duplicates, 0);
  console.log(`${resumeRuns.length} resume runs: ${gaps} gaps, ${duplicates} duplicates`);
}
process.exit(failed ? 1 : 0);
