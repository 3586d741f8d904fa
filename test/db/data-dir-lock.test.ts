/**
 * The data directory's lock (src/db/data-dir-lock.ts): of two Skiff processes started at the same moment on one
 * fresh SKIFF_DATA_DIR exactly one serves and the other exits 1 saying the directory is in use; a kill -9 leaves
 * no lock behind; a start while the previous Skiff is still shutting down is refused the same way. Real `src/main.ts`
 * processes (test/helpers/process.ts) with their embedded PostgreSQL, real kill signals, temporary directories.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { chmod, mkdtemp, readFile, readlink, rm, symlink } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { createInterface } from "node:readline";
import { afterAll, describe, expect, it } from "vitest";
import { lockDataDir, lockFile } from "../../src/db/data-dir-lock.ts";
import { isAlive } from "../../src/db/embedded-orphan.ts";
import { freePort } from "../helpers/free-port.ts";
import { type SkiffProcess, spawnSkiff } from "../helpers/process.ts";
import { slowPost } from "../helpers/slow-request.ts";

const fixtures = new URL("./fixtures/", import.meta.url).pathname;
const cleanups: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

/** A fresh data directory (not created yet) under a temporary directory other users may enter, removed afterwards. */
async function dataDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "skiff-lock-test-"));
  await chmod(dir, 0o755);
  cleanups.push(async () => {
    const link = await readlink(join(dir, "data", "postgres")).catch(() => undefined);
    if (link) await rm(dirname(link), { recursive: true, force: true });
    await rm(dir, { recursive: true, force: true });
  });
  return join(dir, "data");
}

/** How a started process ended up: serving at `url`, or exited with `code`. */
type Outcome = { skiff: SkiffProcess; url: string; code?: undefined } | { skiff: SkiffProcess; code: number | null };

/** Starts `src/main.ts` on the embedded PostgreSQL of `dir` (port `pgPort`), killed after the file at the latest. */
function start(dir: string, pgPort: number, shutdownSeconds = 30): SkiffProcess {
  const skiff = spawnSkiff({
    SKIFF_DATA_DIR: dir,
    SKIFF_EMBEDDED_PG_PORT: String(pgPort),
    // No sandbox payment gateway beside it: its fixed port would be shared by every process of the suite.
    SKIFF_GATEWAY_URL: "http://127.0.0.1:9",
    SKIFF_SHUTDOWN_TIMEOUT: String(shutdownSeconds),
  });
  cleanups.push(async () => {
    skiff.child.kill("SIGKILL");
    await skiff.exited;
  });
  return skiff;
}

/** Waits until `skiff` reports ready or exits, whichever comes first. */
async function settle(skiff: SkiffProcess): Promise<Outcome> {
  return Promise.race([
    skiff.waitForLog((r) => r.msg === "Skiff is ready", 180_000).then((r) => ({ skiff, url: r.url as string })),
    skiff.exited.then(({ code }) => ({ skiff, code })),
  ]);
}

/**
 * Starts two processes on `dir` at the same moment and checks that exactly one serves (`/readyz` 200) and the
 * other exits 1 naming the directory and the server's pid. @returns the serving one and its URL.
 */
async function race(dir: string, pgPort: number): Promise<{ winner: SkiffProcess; url: string }> {
  const outcomes = await Promise.all([start(dir, pgPort), start(dir, pgPort)].map(settle));
  const serving = outcomes.filter((o) => o.code === undefined);
  const refused = outcomes.filter((o) => o.code !== undefined);
  const report = outcomes.map((o) => `pid ${o.skiff.child.pid}: ${o.skiff.stderr().trim().split("\n").at(-1)}`);
  expect(serving.length, report.join("\n")).toBe(1);
  const [winner] = serving as Array<{ skiff: SkiffProcess; url: string }>;
  const [loser] = refused;
  expect(loser!.code).toBe(1);
  expect(loser!.skiff.stderr()).toContain(
    `Skiff could not start: The data directory ${dir} is in use by Skiff process ${winner!.skiff.child.pid} ` +
      `(it holds ${lockFile(dir)}).`,
  );
  expect((await fetch(`${winner!.url}/readyz`)).status).toBe(200);
  return { winner: winner!.skiff, url: winner!.url };
}

/** The pid of the postmaster running the cluster of `dir`. */
async function postmasterOf(dir: string): Promise<number> {
  return Number((await readFile(join(dir, "postgres", "postmaster.pid"), "utf8")).split("\n")[0]);
}

/** Starts the fixture that takes the lock of `dir` and holds it; resolves once it has. */
async function holdInChild(dir: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, [join(fixtures, "hold-lock.ts"), dir], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  cleanups.push(async () => {
    child.kill("SIGKILL");
  });
  const first = await createInterface({ input: child.stdout! })[Symbol.asyncIterator]().next();
  expect(first.value).toBe("locked");
  return child;
}

describe("the data directory lock", () => {
  it("refuses a second holder, naming the directory and the holder's pid, and can be taken again once released", async () => {
    const dir = await mkdtemp(join(tmpdir(), "skiff-lock-unit-"));
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    const lock = await lockDataDir(dir);
    expect(await readFile(lockFile(dir), "utf8")).toBe(`${process.pid}\n`);
    await expect(lockDataDir(dir)).rejects.toThrow(
      `The data directory ${dir} is in use by Skiff process ${process.pid} (it holds ${lockFile(dir)})`,
    );
    lock.release();
    lock.release();
    const again = await lockDataDir(dir);
    again.release();
  });

  it("is a kernel lock: a kill -9 of its holder releases it at once, and the lock file left behind is no obstacle", async () => {
    const dir = await mkdtemp(join(tmpdir(), "skiff-lock-unit-"));
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    const holder = await holdInChild(dir);
    await expect(lockDataDir(dir)).rejects.toThrow(`in use by Skiff process ${holder.pid} `);
    holder.kill("SIGKILL");
    await new Promise((resolve) => holder.once("exit", resolve));
    const lock = await lockDataDir(dir);
    expect(await readFile(lockFile(dir), "utf8")).toBe(`${process.pid}\n`);
    lock.release();
  });

  it("is taken with perl where util-linux's flock is missing, the same kernel lock", async () => {
    const dir = await mkdtemp(join(tmpdir(), "skiff-lock-unit-"));
    const bin = await mkdtemp(join(tmpdir(), "skiff-lock-path-"));
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    cleanups.push(() => rm(bin, { recursive: true, force: true }));
    await symlink("/usr/bin/perl", join(bin, "perl"));
    const holder = await holdInChild(dir);
    const path = process.env.PATH;
    process.env.PATH = bin;
    try {
      await expect(lockDataDir(dir)).rejects.toThrow(`in use by Skiff process ${holder.pid} `);
      holder.kill("SIGKILL");
      await new Promise((resolve) => holder.once("exit", resolve));
      const lock = await lockDataDir(dir);
      // Taken by perl, it excludes util-linux's flock too.
      process.env.PATH = path;
      await expect(lockDataDir(dir)).rejects.toThrow(`in use by Skiff process ${process.pid} `);
      lock.release();
    } finally {
      process.env.PATH = path;
    }
  });
});

describe("two Skiff processes on one data directory", () => {
  /** Races per run (`SKIFF_TEST_RACES`, default 2): a loop of many races is `SKIFF_TEST_RACES=10 npx vitest run <file>`. */
  const RACES = Number(process.env.SKIFF_TEST_RACES ?? 2);

  it(`of two started at the same moment on a fresh directory, exactly one serves and the other exits 1 (${RACES} races)`, {
    timeout: RACES * 200_000,
  }, async () => {
    for (let round = 0; round < RACES; round++) {
      const { winner } = await race(await dataDir(), await freePort());
      winner.child.kill("SIGTERM");
      expect((await winner.exited).code).toBe(0);
    }
  });

  it("after a kill -9 of the serving one, of two new starts exactly one serves, the orphaned postmaster stopped first", {
    timeout: 400_000,
  }, async () => {
    const dir = await dataDir();
    const pgPort = await freePort();
    const { winner } = await race(dir, pgPort);
    const orphan = await postmasterOf(dir);
    winner.child.kill("SIGKILL");
    await winner.exited;
    expect(isAlive(orphan)).toBe(true);

    const next = await race(dir, pgPort);
    expect(isAlive(orphan)).toBe(false);
    expect(await postmasterOf(dir)).not.toBe(orphan);
    next.winner.child.kill("SIGTERM");
    expect((await next.winner.exited).code).toBe(0);
  });

  it("a start while the previous one is shutting down exits 1 naming it; once it has exited, a start serves", {
    timeout: 400_000,
  }, async () => {
    const dir = await dataDir();
    const pgPort = await freePort();
    // Its drain lasts as long as the request below stays in flight, however slowly the machine boots the next start.
    const first = start(dir, pgPort, 600);
    const ready = await settle(first);
    expect(ready.code, first.stderr()).toBeUndefined();
    const url = (ready as { url: string }).url;
    // A request in flight keeps the shutdown draining (up to SKIFF_SHUTDOWN_TIMEOUT) until its body is sent.
    const slow = slowPost(`${url}/graphql`, JSON.stringify({ query: "{ __typename }" }));
    await slow.connected;
    first.child.kill("SIGTERM");
    await first.waitForLog((r) => r.msg === "shutting down");

    const during = start(dir, pgPort);
    expect((await settle(during)).code).toBe(1);
    expect(during.stderr()).toContain(`The data directory ${dir} is in use by Skiff process ${first.child.pid} `);
    expect(first.child.exitCode).toBeNull();

    slow.finish();
    const answer = await slow.result;
    expect(answer.status, JSON.stringify(answer)).toBe(200);
    expect((await first.exited).code).toBe(0);
    const after = start(dir, pgPort);
    const served = await settle(after);
    expect(served.code, after.stderr()).toBeUndefined();
    expect((await fetch(`${(served as { url: string }).url}/readyz`)).status).toBe(200);
    after.child.kill("SIGTERM");
    expect((await after.exited).code).toBe(0);
  });
});
