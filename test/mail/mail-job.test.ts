/**
 * Mail as a background job: a stuck SMTP server delays the mail, never the request;
 * the mail body is sealed in the queue; a refused invitation mails nothing; a mail job
 * whose body cannot be decrypted fails for good instead of retrying.
 */
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningSkiff } from "../../src/server/start.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";
import { drainJobs } from "../helpers/jobs.ts";
import { createOrg } from "../helpers/seed.ts";
import { gql, startTestServer } from "../helpers/server.ts";
import { until } from "../jobs/job-fixture.ts";

let db: TestDatabase;
let skiff: RunningSkiff;
let smtp: SMTPServer;
const received: Array<{ to: string[]; raw: string }> = [];
/** While closed, the SMTP server holds every message without answering (a stuck server). */
let gate: { open: () => void; opened: Promise<void> };
let smtpSessions = 0;

function closeGate() {
  let open!: () => void;
  const opened = new Promise<void>((r) => {
    open = r;
  });
  gate = { open, opened };
}

beforeAll(async () => {
  closeGate();
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    onConnect(_session, callback) {
      smtpSessions += 1;
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("end", async () => {
        await gate.opened;
        received.push({ to: session.envelope.rcptTo.map((r) => r.address), raw: Buffer.concat(chunks).toString() });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, "127.0.0.1", resolve));
  const port = (smtp.server.address() as { port: number }).port;
  db = await createTestDatabase();
  skiff = await startTestServer(db.url, { SMTP_URL: `smtp://127.0.0.1:${port}` });
});
afterAll(async () => {
  gate?.open();
  await skiff?.stop();
  await new Promise<void>((resolve) => smtp.close(resolve));
  await db?.drop();
});

const INVITE = `mutation($email: EmailAddress!) { inviteMember(input: { email: $email, role: member }) { link } }`;

describe("mail.send", () => {
  it("answers the invitation while the SMTP server is stuck, and delivers the mail once it answers", async () => {
    const org = await createOrg(db.knex);
    const res = await gql<{ inviteMember: { link: string } }>(
      skiff.url,
      INVITE,
      { email: "stuck@example.test" },
      { apiKey: org.owner.apiKey },
    );
    expect(res.errors).toBeUndefined();
    // The worker is talking to the SMTP server, which has not answered: the request did not wait for it.
    await until(() => smtpSessions > 0);
    expect(received).toEqual([]);
    const { rows } = await db.knex.raw(
      "select payload::text as payload from graphile_worker._private_jobs j join graphile_worker._private_tasks t on t.id = j.task_id where t.identifier = 'mail.send'",
    );
    expect(rows).toHaveLength(1);
    const token = new URL(res.data!.inviteMember.link).searchParams.get("token")!;
    expect(rows[0].payload).toContain("stuck@example.test");
    expect(rows[0].payload).not.toContain(token);

    gate.open();
    await drainJobs(db.knex);
    expect(received.map((m) => m.to)).toEqual([["stuck@example.test"]]);
    expect(received[0]!.raw.replace(/=\r\n/g, "")).toContain(token);
  });

  it("mails nothing for a refused invitation", async () => {
    const org = await createOrg(db.knex);
    const before = received.length;
    await gql(skiff.url, INVITE, { email: "twice@example.test" }, { apiKey: org.owner.apiKey });
    const second = await gql(skiff.url, INVITE, { email: "twice@example.test" }, { apiKey: org.owner.apiKey });
    expect(second.errors?.[0]?.extensions?.code).toBe("CONFLICT");
    await drainJobs(db.knex);
    expect(received.slice(before).map((m) => m.to)).toEqual([["twice@example.test"]]);
  });

  it("fails a mail whose body cannot be decrypted for good, without retrying", async () => {
    await db.knex.raw(
      "select graphile_worker.add_job('mail.send', json_build_object('to', 'x@example.test', 'subject', 'Hi', 'sealedText', 'v1.bad.bad.bad'))",
    );
    await until(async () => {
      const { rows } = await db.knex.raw(
        // The attempt is counted when the job is taken; wait for its outcome: unlocked, with its error recorded.
        "select attempts from graphile_worker.jobs where task_identifier = 'mail.send' and attempts > 0 and locked_at is null and last_error is not null",
      );
      return rows.length === 1;
    });
    const { rows } = await db.knex.raw(
      "select attempts, max_attempts, last_error from graphile_worker.jobs where task_identifier = 'mail.send'",
    );
    expect(rows).toEqual([
      { attempts: 1, max_attempts: 1, last_error: "The mail body cannot be decrypted (was SKIFF_SECRET changed?)" },
    ]);
  });
});
