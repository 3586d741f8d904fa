/**
 * The `skiff` CLI (clients/cli) against a real server on loopback, run in a pseudo-terminal (`script` from
 * util-linux): a successful import shows every step turning done and the created ids; a failing one shows the
 * step it failed at and exits 1; `skiff deploy` follows a real deployment (dry-run deployer, the server's own
 * worker) through its status changes and log lines to `done`, and a failing one to `error` (exit 1); `--json`
 * output parses; usage errors exit 2.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newId } from "../../src/db/ids.ts";
import { seededApplication } from "../deployments/deploy-helpers.ts";
import { cliEnv, runCli } from "../helpers/cli-runner.ts";
import { startHttpsReceiver } from "../helpers/https-receiver.ts";
import { createProjects } from "../helpers/seed.ts";
import { useTestServer } from "../helpers/server.ts";
import { failInsertsWhen, importReadyOrg } from "../site-imports/import-helpers.ts";
import { orgNumber } from "../webhooks/webhook-helpers.ts";

// Webhook endpoints on 127.0.0.1 (the test receiver) are refused by the outbound guard unless allowed.
const t = useTestServer({ SKIFF_OUTBOUND_ALLOW: "127.0.0.1" });
let dir: string;
let org: Awaited<ReturnType<typeof importReadyOrg>>;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "skiff-cli-"));
  org = await importReadyOrg(t.db.knex);
  await failInsertsWhen(t.db.knex, "domains", "host", "fail-at-domain");
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Runs `skiff args…` as the org's owner (or `apiKey`), in a pseudo-terminal unless `tty` is false. */
async function skiff(
  args: string[],
  opts: { tty?: boolean; apiKey?: string } = {},
): Promise<{ code: number; output: string }> {
  return runCli(args, cliEnv(t.skiff.url, opts.apiKey ?? org.owner.apiKey, dir), opts.tty !== false);
}

async function requestFile(name: string, domain?: string): Promise<string> {
  const file = join(dir, `${name}.json`);
  await writeFile(
    file,
    JSON.stringify({
      organizationId: org.organizationId,
      name,
      source: { type: "docker", dockerImage: "nginx:1.27" },
      ...(domain && { domain }),
      database: { type: "postgres", name: `${name.replaceAll("-", "_")}db`, user: "u", password: "p" },
    }),
  );
  return file;
}

describe("skiff import", () => {
  it("previews, imports, and shows each step turning done with the created ids (pty)", async () => {
    const file = await requestFile("cli-shop", `cli-shop-${Date.now()}.example.test`);
    const { code, output } = await skiff(["import", file, "--yes"]);
    expect(output).toContain("Preview");
    for (const step of ["project", "database", "application", "domain", "deployment"]) {
      expect(output, output).toMatch(new RegExp(`${step}\\s+done\\s+\\w+_`));
    }
    expect(output, output).toMatch(/import\s+imp_/);
    expect(output).toContain("Imported.");
    expect(code).toBe(0);
  }, 90_000);

  it("shows the step a failing import stopped at and exits 1 (pty)", async () => {
    const file = await requestFile("cli-broken", `fail-at-domain-${Date.now()}.example.test`);
    const { code, output } = await skiff(["import", file, "--yes"]);
    for (const step of ["project", "database", "application"]) expect(output).toMatch(new RegExp(`${step}\\s+done`));
    expect(output).toMatch(/domain\s+failed: /);
    expect(output).toMatch(/deployment\s+skipped/);
    expect(output).toContain("Import partial at domain_creation.");
    expect(code).toBe(1);
  }, 90_000);

  it("prints JSON with --json, lists imports, and exits 2 on usage errors", async () => {
    const file = await requestFile("cli-json");
    const imported = await skiff(["import", file, "--yes", "--json"], { tty: false });
    expect(imported.code).toBe(0);
    const result = JSON.parse(imported.output.trim().split("\n").at(-1)!);
    expect(result).toMatchObject({ status: "success", steps: { project: "done", domain: "skipped" } });
    // The same file again carries the same idempotency key: the import made above is the answer, nothing new.
    const again = await skiff(["import", file, "--yes", "--json"], { tty: false });
    expect(again.code).toBe(0);
    expect(JSON.parse(again.output.trim().split("\n").at(-1)!)).toMatchObject({
      importId: result.importId,
      status: "success",
    });

    const list = await skiff(["imports", "--status", "partial", "--json"], { tty: false });
    expect(list.code).toBe(0);
    const rows = JSON.parse(list.output) as Array<{ name: string; status: string }>;
    expect(rows.map((r) => r.name)).toEqual(["cli-broken"]);

    const rollback = await skiff(["rollback", (rows[0] as unknown as { id: string }).id, "--json"], { tty: false });
    expect(JSON.parse(rollback.output)).toMatchObject({ rolledBack: true });

    expect((await skiff(["import", file, "--json"], { tty: false })).code).toBe(2);
    expect((await skiff(["nope"], { tty: false })).code).toBe(2);
    expect((await skiff(["import", join(dir, "missing.json"), "--yes"], { tty: false })).code).toBe(2);
    // Imported with its output on a pipe: the outcome as a line of its own, no terminal control codes.
    const piped = await skiff(["import", await requestFile("cli-piped"), "--yes"], { tty: false });
    expect(piped.code, piped.output).toBe(0);
    expect(piped.output).toMatch(/Import imp_\w+: success/);
    expect(piped.output).not.toContain("\u001b[");
    // A prompt with no terminal to answer it: a usage error naming what to give, never Node's exit 13.
    const noTerminal = await skiff(["import", await requestFile("cli-no-tty")], { tty: false });
    expect(noTerminal).toMatchObject({ code: 2, output: expect.stringContaining("give --yes to import") });
    const login = await skiff(["login"], { tty: false });
    expect(login).toMatchObject({ code: 2, output: expect.stringContaining("give --url and --api-key") });
  }, 90_000);
});

describe("skiff webhooks test", () => {
  it("pings an endpoint and reports the delivered attempt as JSON", async () => {
    const receiver = await startHttpsReceiver();
    try {
      const number = await orgNumber(t.db.knex, org.organizationId);
      const created = await fetch(`${t.skiff.url}/api/v1/orgs/${number}/webhooks`, {
        method: "POST",
        headers: { "x-api-key": org.owner.apiKey, "content-type": "application/json" },
        body: JSON.stringify({ url: `${receiver.url}/hook`, events: ["user_signed_up"] }),
      });
      expect(created.status).toBe(201);
      const { webhook_uuid } = (await created.json()) as { webhook_uuid: string };
      const ping = await skiff(["webhooks", "test", webhook_uuid, "--org", String(number), "--json"], { tty: false });
      expect(ping.code, ping.output).toBe(0);
      expect(JSON.parse(ping.output)).toMatchObject({ event: "ping", success: true, response_status: 200 });
      expect(receiver.requests).toHaveLength(1);
      expect((await skiff(["webhooks", "test", webhook_uuid], { tty: false })).code).toBe(2);
    } finally {
      await receiver.close();
    }
  }, 60_000);
});

describe("skiff deploy", () => {
  /** A docker application of a fresh organization, with its name and its project's name. */
  async function application() {
    const app = await seededApplication(t.db.knex, { source: JSON.stringify({ dockerImage: "nginx:1.27" }) });
    const { name } = await t.db.knex("applications").where({ id: app.applicationId }).first("name");
    const project = await t.db.knex("projects").where({ id: app.projectId }).first("name");
    return { ...app, name: name as string, projectName: project.name as string };
  }

  it("deploys by name and project, and shows each status change and log line live, then done (pty)", async () => {
    const app = await application();
    const { code, output } = await skiff(["deploy", app.name, "--project", app.projectName], {
      apiKey: app.owner.apiKey,
    });
    expect(output, output).toContain(`skiff deploy ${app.name}`);
    expect(output).toMatch(/dpl_\w+\s+Manual deployment/);
    const order = ["queued", "running", "deployment started (deployer dry-run", "dry run: nothing applied", "done"];
    let at = -1;
    for (const text of order) {
      const next = output.indexOf(text, at + 1);
      expect(next, `${text} after position ${at} in:\n${output}`).toBeGreaterThan(at);
      at = next;
    }
    expect(output).toMatch(/\d\d:\d\d:\d\d\s+info\s+deployment finished/);
    expect(output).toMatch(/Deployment dpl_\w+ done in \d+\.\d s\./);
    expect(code).toBe(0);
  }, 90_000);

  it("prints NDJSON events then the final deployment with --json --follow, one document with --json", async () => {
    const app = await application();
    const followed = await skiff(["deploy", app.applicationId, "--json", "--follow"], {
      tty: false,
      apiKey: app.owner.apiKey,
    });
    expect(followed.code, followed.output).toBe(0);
    const lines = followed.output
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    const final = lines.at(-1)!;
    expect(final).toMatchObject({ id: expect.stringMatching(/^dpl_/), status: "done", trigger: "manual" });
    const events = lines.slice(0, -1);
    expect(events.filter((e) => e.type === "status").map((e) => e.status)).toEqual(["queued", "running", "done"]);
    const logs = events.filter((e) => e.type === "log");
    expect(logs.map((e) => e.text)).toEqual((final.logs as Array<{ text: string }>).map((l) => l.text));
    expect(logs.every((e) => e.deploymentId === final.id)).toBe(true);

    const once = await skiff(["deploy", app.applicationId, "--json", "--title", "Release 2"], {
      tty: false,
      apiKey: app.owner.apiKey,
    });
    expect(once.code, once.output).toBe(0);
    expect(JSON.parse(once.output)).toMatchObject({ status: "done", title: "Release 2" });
  }, 90_000);

  it("ends with the error and exits 1 when the deployment fails; usage errors exit 2, unknown apps 1", async () => {
    const app = await application();
    // A variable that cannot be decrypted (e.g. after a key rotation): rendering fails, the deployment ends `error`.
    await t.db.knex("environment_variables").insert({
      id: newId("envVar"),
      application_id: app.applicationId,
      key: "BROKEN",
      value_encrypted: "not-a-sealed-value",
    });
    const { code, output } = await skiff(["deploy", app.applicationId], { apiKey: app.owner.apiKey });
    expect(output, output).toMatch(/error\s+deployment failed: /);
    expect(output).toMatch(/Deployment dpl_\w+ error/);
    expect(code).toBe(1);

    const as = { tty: false, apiKey: app.owner.apiKey };
    expect((await skiff(["deploy", app.name], as)).code).toBe(2);
    expect((await skiff(["deploy", app.name, "--project", "no-such-project"], as)).code).toBe(1);
    expect((await skiff(["deploy", "app_00000000000000000000000000"], as)).code).toBe(1);
    // Another organization's application is not visible.
    expect((await skiff(["deploy", app.applicationId], { tty: false })).code).toBe(1);
  }, 90_000);
});

describe("skiff apps, env and domains", () => {
  it("creates an application, sets, lists and unsets variables, adds and removes a domain, deletes it", async () => {
    const [projectId] = await createProjects(t.db.knex, org.organizationId, 1);
    const env = await t.db.knex("environments").where({ project_id: projectId }).first("id");
    const as = { tty: false } as const;
    const json = (output: string) => JSON.parse(output.trim().split("\n").at(-1)!);

    const created = await skiff(
      ["apps", "create", "cli-app", "--environment", env.id, "--image", "nginx:1.27", "--json"],
      as,
    );
    expect(created.code, created.output).toBe(0);
    const app = json(created.output) as { id: string; name: string; needsDeployment: boolean };
    expect(app).toMatchObject({ name: "cli-app", needsDeployment: true });

    const set = await skiff(["env", "set", app.id, "A=1", "URL=https://x.example/?a=b", "--json"], as);
    expect(set.code, set.output).toBe(0);
    expect(json(set.output).setKeys).toEqual(["A", "URL"]);
    const file = join(dir, "bad.env");
    await writeFile(file, "GOOD=1\nnot a line\n1BAD=2\n");
    const refused = await skiff(["env", "set", app.id, "--file", file], as);
    expect(refused.code).toBe(1);
    expect(refused.output).toMatch(/line\.2: Not a KEY=value line/);
    expect(refused.output).toMatch(/line\.3: 1BAD: Invalid variable name/);
    expect((await skiff(["env", "set", app.id], as)).code).toBe(2);

    const masked = await skiff(["env", "list", app.id], as);
    expect(masked.output).toContain("A=********");
    expect(masked.output).not.toContain("https://x.example");
    const revealed = json((await skiff(["env", "list", app.id, "--reveal", "--json"], as)).output);
    expect(revealed.variables).toEqual([
      { key: "A", value: "1" },
      { key: "URL", value: "https://x.example/?a=b" },
    ]);
    const unset = await skiff(["env", "unset", app.id, "A", "NEVER_SET", "--json"], as);
    expect(unset.code, unset.output).toBe(0);
    expect(json(unset.output)).toEqual({ id: app.id, removed: ["A"], missing: ["NEVER_SET"] });
    expect(json((await skiff(["env", "list", app.id, "--json"], as)).output).variables).toEqual([
      { key: "URL", value: "********" },
    ]);

    const host = `cli-${projectId!.slice(-8).toLowerCase()}.example.test`;
    const added = await skiff(["domains", "add", app.id, host, "--port", "3000", "--json"], as);
    expect(added.code, added.output).toBe(0);
    expect(json(added.output)).toMatchObject({ host, port: 3000, https: true });
    const removed = await skiff(["domains", "remove", app.id, host], as);
    expect(removed.output).toContain(`removed ${host}; domains now: none`);
    const again = await skiff(["domains", "remove", app.id, host.toUpperCase()], as);
    expect(again.code, again.output).toBe(0);
    expect(again.output).toContain(`${host} was not routed here, no change; domains now: none`);

    expect((await skiff(["apps", "delete", app.id], as)).output).toContain(`${app.id} deleted`);
    expect(await t.db.knex("applications").where({ id: app.id }).first()).toBeUndefined();
    expect((await skiff(["apps", "delete", app.id], as)).code).toBe(1);
  }, 300_000); // 15 runs of the CLI, each a new Node process
});
