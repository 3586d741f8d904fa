/**
 * The embedded PostgreSQL (src/db/embedded.ts): runs without any signal handler of its own, with a random
 * superuser password, recovers a cluster left by a SIGKILLed owner, refuses one still in use, and is not
 * loaded at all when DATABASE_URL is set. Real clusters on free loopback ports in temporary directories.
 */
import { type ChildProcess, execFile, spawn } from "node:child_process";
import { chmod, mkdtemp, readFile, readlink, rm, stat, unlink } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { createInterface } from "node:readline";
import { promisify } from "node:util";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { startEmbeddedPostgres } from "../../src/db/embedded.ts";
import { isAlive } from "../../src/db/embedded-orphan.ts";
import { passwordFile } from "../../src/db/embedded-password.ts";
import { freePort } from "../helpers/free-port.ts";

const fixtures = new URL("./fixtures/", import.meta.url).pathname;
const cleanups: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

/** A fresh data directory that other users may enter (mode 0755), removed after the file. */
async function dataDir(mode = 0o755): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "skiff-embedded-test-"));
  await chmod(dir, mode);
  cleanups.push(async () => {
    const link = await readlink(join(dir, "data", "postgres")).catch(() => undefined);
    if (link) await rm(dirname(link), { recursive: true, force: true });
    await rm(dir, { recursive: true, force: true });
  });
  return join(dir, "data");
}

async function login(url: string): Promise<string> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
  await client.connect();
  try {
    return (await client.query("select current_user as u")).rows[0].u as string;
  } finally {
    await client.end();
  }
}

function withPassword(url: string, password: string): string {
  const u = new URL(url);
  u.password = password;
  return u.toString();
}

describe("embedded PostgreSQL", () => {
  it("runs its postmaster (whose backends are its forks) with malloc keeping large allocations on the heap", async () => {
    // Whatever Skiff's own process runs with (`npm start` sets a lower threshold for Node): the postmaster's own.
    const saved = process.env.MALLOC_MMAP_THRESHOLD_;
    process.env.MALLOC_MMAP_THRESHOLD_ = "262144";
    let server: Awaited<ReturnType<typeof startEmbeddedPostgres>>;
    try {
      server = await startEmbeddedPostgres(await dataDir(), await freePort(), { durable: false });
    } finally {
      if (saved === undefined) delete process.env.MALLOC_MMAP_THRESHOLD_;
      else process.env.MALLOC_MMAP_THRESHOLD_ = saved;
    }
    cleanups.push(() => server.stop());
    // The backends overwrite their environment's memory with their process titles: the postmaster's is read.
    const environ = (await readFile(`/proc/${server.pid}/environ`, "utf8")).split("\0");
    expect(environ).toEqual(
      expect.arrayContaining(["MALLOC_MMAP_THRESHOLD_=4194304", "MALLOC_TRIM_THRESHOLD_=33554432"]),
    );
  });

  it("starts with a random password kept 0600, registers no signal handler, and stop() waits for the exit", async () => {
    const dir = await dataDir();
    const before = { int: process.listenerCount("SIGINT"), term: process.listenerCount("SIGTERM") };
    const server = await startEmbeddedPostgres(dir, await freePort(), { durable: false });
    cleanups.push(() => server.stop());
    expect({ int: process.listenerCount("SIGINT"), term: process.listenerCount("SIGTERM") }).toEqual(before);
    expect(await login(server.url)).toBe("postgres");
    const password = new URL(server.url).password;
    expect(password).toMatch(/^[0-9a-f]{64}$/);
    expect((await stat(passwordFile(dir))).mode & 0o777).toBe(0o600);
    await expect(login(withPassword(server.url, "postgres"))).rejects.toThrow(/password authentication failed/);
    expect(isAlive(server.pid)).toBe(true);
    await server.stop();
    expect(isAlive(server.pid)).toBe(false);
    await expect(login(server.url)).rejects.toThrow();
  });

  it("recovers a cluster left running by a SIGKILLed owner, and refuses one whose owner lives", async () => {
    const dir = await dataDir();
    const port = await freePort();
    const child: ChildProcess = spawn(process.execPath, [join(fixtures, "hold-embedded.ts"), dir, String(port)], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    cleanups.push(async () => {
      child.kill("SIGKILL");
    });
    const [line] = await createInterface({ input: child.stdout! })
      [Symbol.asyncIterator]()
      .next()
      .then((r) => [r.value]);
    const orphan = JSON.parse(line as string) as { pid: number; url: string };
    expect(await login(orphan.url)).toBe("postgres");

    await expect(startEmbeddedPostgres(dir, port, { durable: false })).rejects.toThrow(
      new RegExp(`in use by Skiff process ${child.pid}`),
    );

    child.kill("SIGKILL");
    await new Promise((resolve) => child.once("exit", resolve));
    expect(isAlive(orphan.pid)).toBe(true);
    expect(await login(orphan.url)).toBe("postgres");

    const server = await startEmbeddedPostgres(dir, port, { durable: false });
    cleanups.push(() => server.stop());
    expect(server.pid).not.toBe(orphan.pid);
    expect(isAlive(orphan.pid)).toBe(false);
    expect(server.url).toBe(orphan.url);
    expect(await login(server.url)).toBe("postgres");
    await server.stop();
  });

  it("replaces the fixed password of a cluster made by an earlier version with a random one", async () => {
    const dir = await dataDir();
    const port = await freePort();
    const first = await startEmbeddedPostgres(dir, port, { durable: false });
    const client = new pg.Client({ connectionString: first.url });
    await client.connect();
    await client.query("alter role postgres password 'postgres'");
    await client.end();
    await first.stop();
    await unlink(passwordFile(dir));

    const second = await startEmbeddedPostgres(dir, port, { durable: false });
    cleanups.push(() => second.stop());
    expect(new URL(second.url).password).toMatch(/^[0-9a-f]{64}$/);
    expect(await login(second.url)).toBe("postgres");
    await expect(login(withPassword(second.url, "postgres"))).rejects.toThrow(/password authentication failed/);
    await second.stop();
  });

  it("fails clearly, naming the port, the data directory and PostgreSQL's reason, when the port is taken", async () => {
    const dir = await dataDir();
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, "127.0.0.1", resolve));
    const { port } = blocker.address() as { port: number };
    try {
      const error = await startEmbeddedPostgres(dir, port, { durable: false }).then(
        () => undefined,
        (e: Error) => e,
      );
      expect(error?.message).toContain(
        `Embedded PostgreSQL did not start on 127.0.0.1:${port} (data in ${dir}/postgres)`,
      );
      expect(error?.message).toMatch(/could not bind|Address already in use/);
    } finally {
      await new Promise((resolve) => blocker.close(resolve));
    }
  });

  it("starts once a port taken for a moment is free again (the default ports lie in the ephemeral range)", async () => {
    const dir = await dataDir();
    // Initialised first, so that the start below reaches its port while it is still taken.
    await (await startEmbeddedPostgres(dir, await freePort(), { durable: false })).stop();
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, "127.0.0.1", resolve));
    const { port } = blocker.address() as { port: number };
    // The port is freed once PostgreSQL has been refused it (however long a loaded machine takes to get there).
    const refused = /could not bind|Address already in use/;
    const freeing = (async () => {
      const deadline = Date.now() + 60_000;
      while (Date.now() < deadline) {
        const log = await readFile(join(dir, "postgres.log"), "utf8").catch(() => "");
        if (refused.test(log.slice(log.lastIndexOf("starting PostgreSQL")))) break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      await new Promise((resolve) => blocker.close(resolve));
    })();
    const server = await startEmbeddedPostgres(dir, port, { durable: false });
    await freeing;
    cleanups.push(() => server.stop());
    expect(await login(server.url)).toBe("postgres");
    const log = await readFile(join(dir, "postgres.log"), "utf8");
    expect(log).toMatch(refused);
    await server.stop();
  });

  it.runIf(process.getuid?.() === 0)(
    "as root, places the cluster where the postgres user can reach it when the data directory is closed (0700)",
    async () => {
      const dir = await dataDir(0o700);
      const server = await startEmbeddedPostgres(dir, await freePort(), { durable: false });
      cleanups.push(() => server.stop());
      const target = await readlink(join(dir, "postgres"));
      expect(target).toMatch(/skiff-postgres\/data-[0-9a-f]{16}\/postgres$/);
      const owner = await promisify(execFile)("stat", ["-c", "%U %a", target]);
      expect(owner.stdout.trim()).toBe("postgres 700");
      expect(await login(server.url)).toBe("postgres");
      await server.stop();
    },
  );

  it("is not loaded when DATABASE_URL is set (no embedded module, no signal handler)", async () => {
    const { stdout } = await promisify(execFile)(process.execPath, [join(fixtures, "resolve-with-url.ts")]);
    const report = JSON.parse(stdout) as { loaded: string[]; sigint: number; sigterm: number };
    expect(report.loaded.some((url) => url.endsWith("/src/db/connect.ts"))).toBe(true);
    expect(report.loaded.filter((url) => /embedded/.test(url))).toEqual([]);
    expect({ sigint: report.sigint, sigterm: report.sigterm }).toEqual({ sigint: 0, sigterm: 0 });
  });
});
