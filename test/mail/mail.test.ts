/**
 * Outgoing mail (docs/sign-in.md, "Mail"): with SMTP_URL, verification and invitation mails go to that SMTP
 * server (here a local smtp-server); without it they land in the local outbox (`mail_outbox` and the log),
 * readable with `npm run skiff -- outbox`. Changing the e-mail address mails its verification link to the new address.
 */
import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import pg from "pg";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { RunningSkiff } from "../../src/server/start.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";
import { drainJobs } from "../helpers/jobs.ts";
import { createOrg } from "../helpers/seed.ts";
import { gql, startTestServer } from "../helpers/server.ts";
import { postAuth, sessionFor } from "../helpers/session.ts";

// One database per server: mails are jobs, and a shared queue would let either server's worker send them.
let db: TestDatabase;
let outboxDb: TestDatabase;
let viaSmtp: RunningSkiff;
let viaOutbox: RunningSkiff;
let smtp: SMTPServer;
const received: Array<{ from: string; to: string[]; raw: string }> = [];

beforeAll(async () => {
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("end", () => {
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString("utf8"),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, "127.0.0.1", resolve));
  const port = (smtp.server.address() as { port: number }).port;
  db = await createTestDatabase();
  viaSmtp = await startTestServer(db.url, {
    SMTP_URL: `smtp://127.0.0.1:${port}`,
    SMTP_FROM: "Skiff Test <skiff@example.test>",
  });
  outboxDb = await createTestDatabase();
  viaOutbox = await startTestServer(outboxDb.url);
});
afterAll(async () => {
  await viaSmtp?.stop();
  await viaOutbox?.stop();
  await new Promise<void>((resolve) => smtp.close(resolve));
  await db?.drop();
  await outboxDb?.drop();
});

/** The decoded body of a raw RFC 5322 message (quoted-printable soft breaks and escapes undone). */
function bodyOf(raw: string): string {
  const body = raw.slice(raw.indexOf("\r\n\r\n") + 4);
  return body
    .replace(/=\r\n/g, "")
    .replace(/=([0-9A-F]{2})/g, (_m, h: string) => String.fromCharCode(Number.parseInt(h, 16)));
}

describe("SMTP", () => {
  it("sends verification and invitation mails through SMTP_URL, from SMTP_FROM, and keeps no outbox copy", async () => {
    const signUp = await postAuth(viaSmtp.url, "/sign-up/email", {
      email: "smtp.user@example.test",
      password: "smtp-user-password",
      name: "SMTP User",
    });
    expect(signUp.status).toBe(200);
    const org = await createOrg(db.knex);
    const invited = await gql<{ inviteMember: { link: string } }>(
      viaSmtp.url,
      `mutation { inviteMember(input: { email: "smtp.invitee@example.test", role: admin }) { link } }`,
      {},
      { apiKey: org.owner.apiKey },
    );
    expect(invited.errors).toBeUndefined();
    await drainJobs(db.knex);

    const verification = received.find((m) => m.to.includes("smtp.user@example.test"));
    expect(verification?.from).toBe("skiff@example.test");
    expect(bodyOf(verification!.raw)).toContain("/api/auth/verify-email?token=");
    const invitation = received.find((m) => m.to.includes("smtp.invitee@example.test"));
    expect(invitation?.raw).toMatch(/^Subject: .*invited you to/m);
    expect(bodyOf(invitation!.raw)).toContain(invited.data!.inviteMember.link);
    expect(await db.knex("mail_outbox").whereIn("to", ["smtp.user@example.test", "smtp.invitee@example.test"])).toEqual(
      [],
    );
  });
});

describe("outbox", () => {
  it("keeps mails in mail_outbox without SMTP_URL and prints them with `skiff outbox`", async () => {
    const org = await createOrg(outboxDb.knex);
    const invited = await gql<{ inviteMember: { link: string } }>(
      viaOutbox.url,
      `mutation { inviteMember(input: { email: "outbox.invitee@example.test", role: member }) { link } }`,
      {},
      { apiKey: org.owner.apiKey },
    );
    await drainJobs(outboxDb.knex);
    const row = await outboxDb.knex("mail_outbox").where({ to: "outbox.invitee@example.test" }).first();
    expect(row.id).toMatch(/^mail_/);
    expect(row.text).toContain(invited.data!.inviteMember.link);

    const { stdout } = await promisify(execFile)(
      process.execPath,
      ["src/cli.ts", "outbox", "--to", "Outbox.Invitee@example.test", "--limit", "5"],
      { env: { ...process.env, DATABASE_URL: outboxDb.url, LOG_LEVEL: "silent" } },
    );
    expect(stdout).toContain("To: outbox.invitee@example.test");
    expect(stdout).toContain(invited.data!.inviteMember.link);

    // Where there is no Skiff database, the command says so (exit 1) and makes none.
    const empty = await mkdtemp(join(tmpdir(), "skiff-no-data-"));
    const admin = new pg.Client({ connectionString: inject("adminUrl") });
    await admin.connect();
    const name = `skiff_t_${process.pid}_${randomBytes(4).toString("hex")}`;
    await admin.query(`create database ${name}`);
    const emptyDatabaseUrl = Object.assign(new URL(inject("adminUrl")), { pathname: `/${name}` }).toString();
    try {
      const { DATABASE_URL: _unset, ...env } = process.env;
      const refused = await promisify(execFile)(process.execPath, ["src/cli.ts", "outbox"], {
        env: { ...env, SKIFF_DATA_DIR: join(empty, ".data"), LOG_LEVEL: "silent" },
      }).catch((e: { code: number; stderr: string }) => e);
      expect(refused).toMatchObject({ code: 1, stderr: expect.stringContaining("No Skiff database here") });
      expect(await readdir(empty)).toEqual([]);
      const unmigrated = await promisify(execFile)(process.execPath, ["src/cli.ts", "outbox"], {
        env: { ...process.env, DATABASE_URL: emptyDatabaseUrl, LOG_LEVEL: "silent" },
      }).catch((e: { code: number; stderr: string }) => e);
      expect(unmigrated).toMatchObject({ code: 1, stderr: expect.stringContaining("holds no Skiff schema yet") });
      // An option the command does not take is a usage error (exit 2), not a failure.
      const usage = await promisify(execFile)(process.execPath, ["src/cli.ts", "outbox", "--bogus"], {
        env: { ...process.env, DATABASE_URL: outboxDb.url, LOG_LEVEL: "silent" },
      }).catch((e: { code: number; stderr: string }) => e);
      expect(usage).toMatchObject({ code: 2, stderr: expect.stringContaining("Unknown option '--bogus'") });
    } finally {
      await rm(empty, { recursive: true, force: true });
      await admin.query(`drop database ${name}`);
      await admin.end();
    }
  });

  it("changes the e-mail address only once the link mailed to the new address is opened", async () => {
    const org = await createOrg(outboxDb.knex);
    const cookie = await sessionFor(outboxDb.knex, viaOutbox.url, org.owner);
    const newEmail = "moved.owner@example.test";
    const res = await postAuth(viaOutbox.url, "/change-email", { newEmail, callbackURL: "/account" }, cookie);
    expect(res.status).toBe(200);
    await drainJobs(outboxDb.knex);
    const email = () => outboxDb.knex("users").where({ id: org.owner.userId }).first("email");
    expect((await email()).email).toBe(org.owner.email);
    const mail = await outboxDb.knex("mail_outbox").where({ to: newEmail }).first();
    // The link names SKIFF_BASE_URL; its path and token are opened on this server.
    const link = new URL(String(mail.text.match(/https?:\/\/\S+verify-email\S+/)?.[0]));
    const opened = await fetch(`${viaOutbox.url}${link.pathname}${link.search}`, {
      redirect: "manual",
      headers: { cookie },
    });
    expect(opened.status).toBe(302);
    expect((await email()).email).toBe(newEmail);
  });
});
