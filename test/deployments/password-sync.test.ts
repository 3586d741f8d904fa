/**
 * A rotated database password reaches the database server (docs/deployments.md "Database passwords"): the script
 * each engine's rendered StatefulSet carries, taken from the rendered manifest, runs against the real servers of
 * this machine — PostgreSQL (the postgres container's postStart hook, as the role whose password it rotates) and
 * MariaDB (the init container's script writes the SQL the server runs with `--init-file`; here the `mariadb` client
 * runs it as root) — and afterwards the new password is the user's and the old one is refused. MySQL's script is
 * MariaDB's with the image's variable names; MongoDB's (not on this machine) is checked for its shape. No password
 * appears in any manifest, and the manifests still validate and keep the restricted policy.
 */
import { execFile } from "node:child_process";
import { createHash, createHmac, pbkdf2Sync } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import type { DatabaseType } from "../../src/modules/databases/index.ts";
import {
  type Manifest,
  PASSWORD_VERSION_ANNOTATION,
  renderManifests,
} from "../../src/modules/deployments/deployment.manifests.ts";
import { validateManifests } from "./k8s-validate.ts";

const run = promisify(execFile);
/** A password no naive quoting survives (quotes, backslash, `$`, `%`, `:`, a psql variable reference). */
const NEW = `n'ew\\"p$w%:skiff_password; ' OR '1'='1`;
const OLD = "old-Pa55word-81c2";

type Container = {
  name: string;
  command?: string[];
  args?: string[];
  env?: Array<{ name: string; value?: string; valueFrom?: unknown }>;
  lifecycle?: { postStart?: { exec?: { command?: string[] } } };
  volumeMounts?: Array<{ name: string; mountPath: string }>;
};
type PodTemplate = {
  metadata: { annotations?: Record<string, string> };
  spec: { initContainers?: Container[]; containers: Container[]; volumes: Array<{ name: string }> };
};

/** The rendered StatefulSet of one database of `type` (password {@link NEW}) and every manifest of the render. */
function rendered(type: DatabaseType) {
  const manifests = renderManifests({
    deploymentId: "deployment_01jsync0000000000000000000",
    application: {
      appName: "shop",
      sourceType: "docker",
      buildType: null,
      port: 8080,
      source: { dockerImage: "nginx:1.27" },
    },
    domains: [],
    env: {},
    databases: [
      {
        type,
        name: "shop",
        username: "shop_user",
        password: NEW,
        serviceHost: "shop-db.x",
        passwordVersion: "0123456789abcdef",
      },
    ],
    registry: null,
  });
  const sts = manifests.find((m) => m.kind === "StatefulSet") as Manifest & { spec: { template: PodTemplate } };
  return { manifests, template: sts.spec.template };
}

/** Whether SCRAM-SHA-256 verifier `stored` (pg_authid.rolpassword) accepts `password`. */
function scramAccepts(stored: string, password: string): boolean {
  const m = stored.match(/^SCRAM-SHA-256\$(\d+):([^$]+)\$([^:]+):(.+)$/);
  if (!m) return false;
  const salted = pbkdf2Sync(password, Buffer.from(m[2]!, "base64"), Number(m[1]), 32, "sha256");
  const storedKey = createHash("sha256").update(createHmac("sha256", salted).update("Client Key").digest()).digest();
  return storedKey.toString("base64") === m[3];
}

const ROLE = `skiff_sync_${process.pid}`;
const psqlAdmin = (sql: string) =>
  run("psql", ["-X", "-At", "-v", "ON_ERROR_STOP=1", "-h", "127.0.0.1", "-U", "postgres", "-d", "postgres", "-c", sql]);
const mariadbRoot = (sql: string) => run("mariadb", ["-h", "127.0.0.1", "-uroot", "-e", sql]);
const mariadbAs = (user: string, password: string) =>
  run("mariadb", ["-h", "127.0.0.1", `-u${user}`, "-N", "-e", "SELECT CURRENT_USER()"], {
    env: { ...process.env, MYSQL_PWD: password },
  });

afterAll(async () => {
  await psqlAdmin(`DROP ROLE IF EXISTS ${ROLE}`).catch(() => {});
  await mariadbRoot(`DROP USER IF EXISTS '${ROLE}'@'%'`).catch(() => {});
});

describe("a rotated password reaches the server at its next start", () => {
  it("postgres: the postStart hook sets the role's own password from POSTGRES_PASSWORD", async () => {
    const { template } = rendered("postgres");
    const db = template.spec.containers[0]!;
    const hook = db.lifecycle!.postStart!.exec!.command!;
    expect(hook.slice(0, 2)).toEqual(["sh", "-c"]);
    // The image's superuser: the hook runs as it (trusted on the local socket; here over loopback).
    await psqlAdmin(`CREATE ROLE ${ROLE} LOGIN SUPERUSER PASSWORD '${OLD}'`);
    const verifier = async () =>
      (await psqlAdmin(`SELECT rolpassword FROM pg_authid WHERE rolname = '${ROLE}'`)).stdout.trim();
    expect(scramAccepts(await verifier(), OLD)).toBe(true);
    await run(hook[0]!, hook.slice(1), {
      env: { PATH: process.env.PATH, PGHOST: "127.0.0.1", PGPORT: "5432", POSTGRES_USER: ROLE, POSTGRES_PASSWORD: NEW },
    });
    const after = await verifier();
    expect(scramAccepts(after, NEW)).toBe(true);
    expect(scramAccepts(after, OLD)).toBe(false);
  });

  it("mariadb: the init container writes the SQL the server runs at start; the user then has the new password", async () => {
    const { template } = rendered("mariadb");
    const init = template.spec.initContainers![0]!;
    const db = template.spec.containers[0]!;
    const file = init.command!.at(-1)!;
    expect(db.args).toEqual(["mariadbd", `--init-file=${file}`]);
    // The file is on a volume both containers mount.
    const dir = file.slice(0, file.lastIndexOf("/"));
    for (const c of [init, db]) expect(c.volumeMounts!.map((m) => m.mountPath)).toContain(dir);

    await mariadbRoot(`CREATE USER '${ROLE}'@'%' IDENTIFIED BY '${OLD}'`);
    expect((await mariadbAs(ROLE, OLD)).stdout).toContain(ROLE);
    const out = mkdtempSync(join(tmpdir(), "skiff-init-"));
    try {
      const sql = join(out, "password.sql");
      await run(init.command![0]!, [...init.command!.slice(1, -1), sql], {
        env: { PATH: process.env.PATH, MARIADB_USER: ROLE, MARIADB_PASSWORD: NEW },
      });
      expect(statSync(sql).mode & 0o077).toBe(0);
      const text = readFileSync(sql, "utf8");
      expect(text).not.toContain(NEW);
      await run("sh", ["-c", 'mariadb -h 127.0.0.1 -uroot <"$1"', "sh", sql]);
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
    expect((await mariadbAs(ROLE, NEW)).stdout).toContain(ROLE);
    await expect(mariadbAs(ROLE, OLD)).rejects.toThrow(/Access denied/);
  });

  it("mysql: the same script, with the image's variables and server", () => {
    const { template } = rendered("mysql");
    const init = template.spec.initContainers![0]!;
    expect(template.spec.containers[0]!.args).toEqual(["mysqld", `--init-file=${init.command!.at(-1)}`]);
    expect(init.command![2]).toBe(
      rendered("mariadb").template.spec.initContainers![0]!.command![2]!.replaceAll("MARIADB_", "MYSQL_"),
    );
  });

  it("mongodb: the init container changes the root user's password on a local server without network", () => {
    const { template } = rendered("mongodb");
    const script = template.spec.initContainers![0]!.command!.join(" ");
    expect(script).toContain("--bind_ip 127.0.0.1");
    expect(script).toContain(
      "changeUserPassword(process.env.MONGO_INITDB_ROOT_USERNAME, process.env.MONGO_INITDB_ROOT_PASSWORD)",
    );
    expect(script).toContain("mongod --dbpath /data/db --shutdown");
    expect(template.spec.containers[0]!.args).toBeUndefined();
  });

  for (const type of ["postgres", "mysql", "mariadb", "mongodb"] as const) {
    it(`${type}: the password only through the Secret; a rotation restarts the server; the manifests validate`, () => {
      const { manifests, template } = rendered(type);
      validateManifests(manifests);
      expect(template.metadata.annotations).toEqual({ [PASSWORD_VERSION_ANNOTATION]: "0123456789abcdef" });
      for (const m of manifests.filter((o) => o.kind !== "Secret")) expect(JSON.stringify(m)).not.toContain("n'ew");
      for (const c of [...(template.spec.initContainers ?? []), ...template.spec.containers]) {
        const passwords = c.env!.filter((e) => /PASSWORD/.test(e.name));
        expect(passwords.length).toBeGreaterThan(0);
        for (const e of passwords)
          expect(e).toEqual({
            name: e.name,
            valueFrom: { secretKeyRef: { name: "shop-db-password", key: "password" } },
          });
      }
    });
  }
});
