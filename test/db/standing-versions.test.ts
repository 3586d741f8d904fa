/**
 * Remembered callers: a remembered API key or agent token is confirmed by reading the credential and the
 * member row alone — its id, role and `standing_version` stand for the whole standing. That holds only while every
 * other table the standing reads grows the version when it changes (migration 20261126100000_member_standing_versions).
 * This test finds those tables in the standing's own SQL (`memberStandingJoinSql`), checks each has its
 * trigger, and that each kind of change grows the version of exactly the members it concerns — and a change that
 * leaves the standing as it was does not.
 */
import type { Knex } from "knex";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newId } from "../../src/db/ids.ts";
import { memberStandingJoinSql } from "../../src/modules/access/index.ts";
import "../../src/modules/index.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";
import { addMember, createOrg, createProjects, type SeededUser } from "../helpers/seed.ts";

let db: TestDatabase;
let org: Awaited<ReturnType<typeof createOrg>>;
let other: Awaited<ReturnType<typeof createOrg>>;
let projects: string[];

beforeAll(async () => {
  db = await createTestDatabase();
  org = await createOrg(db.knex);
  other = await createOrg(db.knex, "plan_pro");
  projects = await createProjects(db.knex, org.organizationId, 2, { applicationsPerEnvironment: 1 });
});
afterAll(async () => {
  await db?.drop();
});

/** `members.standing_version` of each of `members`, as numbers. */
async function versions(knex: Knex, members: SeededUser[]): Promise<number[]> {
  const rows: Array<{ id: string; v: string }> = await knex("members")
    .whereIn(
      "id",
      members.map((m) => m.memberId),
    )
    .select("id", knex.raw("standing_version::text as v"));
  return members.map((m) => Number(rows.find((r) => r.id === m.memberId)?.v));
}

describe("members.standing_version", () => {
  it("has a trigger on every table the standing reads besides members, and on users (the key caller's email)", async () => {
    const read = new Set(
      [...memberStandingJoinSql("s", (m) => `${m}.id = $1`).matchAll(/\b(?:from|join)\s+(?!lateral\b)([a-z_]+)/g)].map(
        (match) => match[1]!,
      ),
    );
    expect([...read].sort()).toEqual(["applications", "member_grants", "members", "organizations", "plans"]);
    const { rows }: { rows: Array<{ table: string }> } = await db.knex.raw(
      `select c.relname as "table" from pg_trigger t join pg_class c on c.oid = t.tgrelid
       where t.tgname = c.relname || '_bump_standing_version' and not t.tgisinternal`,
    );
    const expected = [...read].filter((table) => table !== "members").concat("users");
    expect(rows.map((r) => r.table).sort()).toEqual(expected.sort());
  });

  it("grows with each change to a member's standing beyond its row, for the members concerned only", async () => {
    const granted = await addMember(db.knex, org.organizationId, "member", { projectIds: [projects[0]!] });
    const [app] = await db.knex("applications").where({ project_id: projects[0] }).pluck("id");
    const appGranted = await addMember(db.knex, org.organizationId, "member", { applicationIds: [app] });
    const bystander = await addMember(db.knex, other.organizationId, "admin");
    const all = [granted, appGranted, bystander];
    let last = await versions(db.knex, all);
    /** Applies `change` and expects the versions to grow by `growth` (one number per member of `all`). */
    const expectGrowth = async (change: () => Promise<unknown>, growth: number[]) => {
      await change();
      const now = await versions(db.knex, all);
      expect(now.map((v, i) => v - last[i]!)).toEqual(growth);
      last = now;
    };
    const grant = { id: newId("grant"), member_id: granted.memberId, project_id: projects[1] };
    await expectGrowth(() => db.knex("member_grants").insert(grant), [1, 0, 0]);
    await expectGrowth(
      () => db.knex("member_grants").where({ id: grant.id }).update({ member_id: appGranted.memberId }),
      [1, 1, 0],
    );
    await expectGrowth(() => db.knex("member_grants").where({ id: grant.id }).delete(), [0, 1, 0]);
    await expectGrowth(() => db.knex("applications").where({ id: app }).update({ project_id: projects[1] }), [0, 1, 0]);
    await expectGrowth(
      () => db.knex("applications").where({ id: app }).update({ project_id: projects[1], name: "renamed" }),
      [0, 0, 0],
    );
    await expectGrowth(
      () => db.knex("organizations").where({ id: org.organizationId }).update({ plan_id: "plan_pro" }),
      [1, 1, 0],
    );
    await expectGrowth(
      () => db.knex("organizations").where({ id: org.organizationId }).update({ plan_id: "plan_pro" }),
      [0, 0, 0],
    );
    const pro = await db.knex("plans").where({ id: "plan_pro" }).first();
    await expectGrowth(
      () =>
        db
          .knex("plans")
          .where({ id: "plan_pro" })
          .update({ features: ["webhooks"] }),
      [1, 1, 1],
    );
    await expectGrowth(() => db.knex("plans").where({ id: "plan_pro" }).update({ features: pro.features }), [1, 1, 1]);
    await expectGrowth(() => db.knex("plans").where({ id: "plan_pro" }).update({ name: "pro" }), [0, 0, 0]);
    await expectGrowth(
      () =>
        db
          .knex("users")
          .where({ id: granted.userId })
          .update({ email: `moved-${granted.email}` }),
      [1, 0, 0],
    );
    // Deleting a project removes its grants by cascade, and its environment's application (moved, still in it) with
    // that application's grant: both members grow.
    await expectGrowth(() => db.knex("projects").where({ id: projects[0] }).delete(), [1, 1, 0]);
  });
});
