/**
 * The server secret (src/db/instance-secret.ts): concurrent first starts agree on one generated secret, and a
 * start with another secret than the database's is refused with the reason.
 */
import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { ensureSecret, verifySecret } from "../../src/db/instance-secret.ts";
import { createSecretBox } from "../../src/db/secrets.ts";
import { createTestDatabase } from "../helpers/db.ts";

const dirs: string[] = [];
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

async function scratch(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "skiff-secret-test-"));
  dirs.push(dir);
  return join(dir, "data");
}

describe("generated secret", () => {
  it("is created once when many starts race on a fresh data directory, mode 0600", async () => {
    const dir = await scratch();
    const secrets = await Promise.all(Array.from({ length: 16 }, () => ensureSecret({ SKIFF_DATA_DIR: dir })));
    const stored = (await readFile(join(dir, "secret"), "utf8")).trim();
    expect(stored).toMatch(/^[0-9a-f]{64}$/);
    expect(new Set(secrets)).toEqual(new Set([stored]));
    expect((await stat(join(dir, "secret"))).mode & 0o777).toBe(0o600);
  });

  it("is the same for concurrent processes", async () => {
    const dir = await scratch();
    const script = `const { ensureSecret } = await import(${JSON.stringify(new URL("../../src/db/instance-secret.ts", import.meta.url).href)});
process.stdout.write(await ensureSecret({ SKIFF_DATA_DIR: ${JSON.stringify(dir)} }));`;
    const run = () =>
      promisify(execFile)(process.execPath, ["--input-type=module", "-e", script]).then((r) => r.stdout);
    const outputs = await Promise.all([run(), run(), run(), run()]);
    const stored = (await readFile(join(dir, "secret"), "utf8")).trim();
    expect(outputs).toEqual([stored, stored, stored, stored]);
  });

  it("SKIFF_SECRET wins over the file", async () => {
    const secret = "x".repeat(40);
    expect(await ensureSecret({ SKIFF_DATA_DIR: await scratch(), SKIFF_SECRET: secret })).toBe(secret);
  });

  it("refuses a start whose secret does not open the stored canary, saying why", async () => {
    const db = await createTestDatabase();
    try {
      await verifySecret(db.knex, createSecretBox("a".repeat(40)), "SKIFF_SECRET");
      await verifySecret(db.knex, createSecretBox("a".repeat(40)), "SKIFF_SECRET");
      await expect(verifySecret(db.knex, createSecretBox("b".repeat(40)), ".data/secret")).rejects.toThrow(
        /server secret \(\.data\/secret\) is not the one this database's stored secrets were encrypted with/,
      );
    } finally {
      await db.drop();
    }
  });
});
