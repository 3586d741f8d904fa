/**
 * `skiff import` of many sites (clients/cli/bulk-import.ts) against a real server on loopback:
 * - 50 sites from a directory, 3 refused by validation and 2 failing at the database step (a PostgreSQL trigger):
 *   the JSON report has one line per site with its import id and status, exit 1; running it again re-attaches every
 *   import (same ids, no new record);
 * - interrupted with SIGINT mid-batch: no new import starts, the running ones finish, exit 130 with the resume hint;
 *   the same command again imports the rest: every site imported exactly once, exit 0;
 * - in a pseudo-terminal: the preview table, one line per finished site, the total line and the summary table.
 */
import { spawn } from "node:child_process";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLI_MAIN, cliEnv, runCli } from "../helpers/cli-runner.ts";
import { freePort } from "../helpers/free-port.ts";
import { useTestServer } from "../helpers/server.ts";
import { failInsertsWhen, importReadyOrg, slowInsertsWhen } from "../site-imports/import-helpers.ts";

const t = useTestServer();
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "skiff-bulk-"));
  await failInsertsWhen(t.db.knex, "databases", "name", "faildb");
  // Projects named "slow-…" wait 300 ms before their row is inserted: an interrupt lands mid-batch.
  await slowInsertsWhen(t.db.knex, "projects", "name", "slow-", 0.3);
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

type ReportLine = { source: string; name: string; importId: string | null; status: string; errorStep?: string };

/** The `--json` report: one object per line of stdout. */
const report = (stdout: string) =>
  stdout
    .split("\n")
    .filter((l) => l.startsWith("{"))
    .map((l) => JSON.parse(l) as ReportLine);

/** Writes `requests` as `NN-name.json` files into a new directory; @returns it. */
async function siteDirectory(name: string, requests: Array<Record<string, unknown>>): Promise<string> {
  const path = join(dir, name);
  await mkdir(path);
  await Promise.all(
    requests.map((r, i) =>
      writeFile(join(path, `${String(i).padStart(2, "0")}-${String(r.name)}.json`), JSON.stringify(r)),
    ),
  );
  return path;
}

const docker = (organizationId: string, name: string, extra: Record<string, unknown> = {}) => ({
  organizationId,
  name,
  source: { type: "docker", dockerImage: "nginx:1.27" },
  ...extra,
});

/** Imports of the organization, and its projects. */
async function counts(organizationId: string) {
  const [imports, projects] = await Promise.all(
    ["site_imports", "projects"].map((table) =>
      t.db.knex(table).where({ organization_id: organizationId }).count<{ count: string }[]>("* as count"),
    ),
  );
  return { imports: Number(imports![0]!.count), projects: Number(projects![0]!.count) };
}

describe("skiff import of a directory", () => {
  it("imports 50 sites: 3 refused by validation, 2 failing at the database step; the report and exit code say so; a re-run re-attaches", async () => {
    const org = await importReadyOrg(t.db.knex);
    const requests = Array.from({ length: 50 }, (_, i) => {
      const name = `bulk-${i}`;
      if (i % 17 === 5) return { organizationId: org.organizationId, name }; // no source: 400
      if (i === 20 || i === 40) {
        return docker(org.organizationId, name, {
          database: { type: "postgres", name: `faildb${i}`, user: "u", password: "p" },
        });
      }
      return docker(
        org.organizationId,
        name,
        i % 3 === 0 ? { database: { type: "postgres", name: `db${i}`, user: "u", password: "p" } } : {},
      );
    });
    const path = await siteDirectory("fifty", requests);
    const env = cliEnv(t.skiff.url, org.owner.apiKey, dir);

    const first = await runCli(["import", path, "--yes", "--json"], env, false, 240_000);
    expect(first.code, first.stderr).toBe(1);
    const lines = report(first.stdout);
    expect(lines).toHaveLength(50);
    const byStatus = (st: string) => lines.filter((l) => l.status === st);
    expect(byStatus("success")).toHaveLength(45);
    expect(
      byStatus("invalid")
        .map((l) => l.name)
        .sort(),
    ).toEqual(["bulk-22", "bulk-39", "bulk-5"]);
    expect(byStatus("invalid").every((l) => l.importId === null)).toBe(true);
    expect(byStatus("partial").map((l) => [l.name, l.errorStep])).toEqual([
      ["bulk-20", "database_creation"],
      ["bulk-40", "database_creation"],
    ]);
    for (const l of [...byStatus("success"), ...byStatus("partial")]) expect(l.importId).toMatch(/^imp_/);
    expect(await counts(org.organizationId)).toEqual({ imports: 47, projects: 47 });

    const again = await runCli(["import", path, "--yes", "--json"], env, false, 240_000);
    expect(again.code).toBe(1);
    expect(report(again.stdout).map((l) => [l.name, l.status, l.importId])).toEqual(
      lines.map((l) => [l.name, l.status, l.importId]),
    );
    expect(await counts(org.organizationId)).toEqual({ imports: 47, projects: 47 });
  }, 600_000);

  it("stops starting imports on SIGINT, says how to resume, and the same command finishes: every site imported once", async () => {
    const org = await importReadyOrg(t.db.knex);
    const path = await siteDirectory(
      "interrupted",
      Array.from({ length: 12 }, (_, i) => docker(org.organizationId, `slow-${i}`)),
    );
    const env = cliEnv(t.skiff.url, org.owner.apiKey, dir);
    const child = spawn(process.execPath, [CLI_MAIN, "import", path, "--yes", "--json", "--concurrency", "2"], { env });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => {
      stdout += d;
    });
    child.stderr.on("data", (d) => {
      stderr += d;
    });
    const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
    for (let i = 0; i < 600 && (await counts(org.organizationId)).imports < 3; i++) {
      await new Promise((r) => setTimeout(r, 50));
    }
    child.kill("SIGINT");
    expect(await exited).toBe(130);
    expect(stderr).toContain("Resume with the same command");
    const firstRun = report(stdout);
    expect(firstRun).toHaveLength(12);
    const done = firstRun.filter((l) => l.status === "success");
    const notStarted = firstRun.filter((l) => l.status === "not_started");
    expect(done.length).toBeGreaterThanOrEqual(3);
    expect(notStarted.length).toBeGreaterThan(0);
    expect(done.length + notStarted.length).toBe(12);
    expect((await counts(org.organizationId)).imports).toBe(done.length);

    const resumed = await runCli(["import", path, "--yes", "--json"], env, false, 120_000);
    expect(resumed.code, resumed.stderr).toBe(0);
    const lines = report(resumed.stdout);
    expect(lines.map((l) => l.status)).toEqual(Array(12).fill("success"));
    for (const d of done) expect(lines.find((l) => l.name === d.name)?.importId).toBe(d.importId);
    expect(await counts(org.organizationId)).toEqual({ imports: 12, projects: 12 });
  }, 300_000);

  it("reports every site and how to resume when the server cannot be reached, instead of ending on the error", async () => {
    const org = await importReadyOrg(t.db.knex);
    const path = await siteDirectory(
      "unreachable",
      Array.from({ length: 3 }, (_, i) => docker(org.organizationId, `gone-${i}`)),
    );
    // A port nothing listens on.
    const env = cliEnv(`http://127.0.0.1:${await freePort()}`, org.owner.apiKey, dir);
    const run = await runCli(["import", path, "--yes", "--json"], env, false, 60_000);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(
      /The server could not be reached \(.+\): \d site\(s\) not started\. Resume with the same command/,
    );
    const lines = report(run.stdout);
    expect(lines.map((l) => l.name).sort()).toEqual(["gone-0", "gone-1", "gone-2"]);
    expect(lines.every((l) => l.status === "not_started" && l.importId === null)).toBe(true);
  }, 120_000);

  it("shows the preview table, a line per finished site, the total line and the summary in a pseudo-terminal", async () => {
    const org = await importReadyOrg(t.db.knex);
    const path = await siteDirectory(
      "pty",
      ["pty-a", "pty-b", "pty-c"].map((n) =>
        docker(org.organizationId, n, { domain: `${n}-${Date.now()}.example.test` }),
      ),
    );
    const { code, output } = await runCli(["import", path, "--yes"], cliEnv(t.skiff.url, org.owner.apiKey, dir));
    expect(code, output).toBe(0);
    expect(output).toMatch(/SOURCE\s+NAME\s+CREATES\s+CHECK/);
    expect(output).toMatch(/\/pty\/00-pty-a\.json\s+pty-a\s+project, domain pty-a-\d+…\s+ok, 1 warning/);
    expect(output).toContain("! pty-a: The HTTPS certificate for pty-a-");
    for (const n of ["pty-a", "pty-b", "pty-c"]) expect(output).toMatch(new RegExp(`✔ ${n}\\s+success\\s+imp_`));
    expect(output).toContain("Total 3/3: 3 succeeded, 0 failed, 0 running, 0 refused by the preview");
    expect(output).toMatch(/SOURCE\s+NAME\s+STATUS\s+IMPORT\s+ERROR/);
  }, 120_000);
});
