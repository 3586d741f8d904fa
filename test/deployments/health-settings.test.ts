/**
 * The health check path setting and the health fields in GraphQL (spec "Deploy events"):
 * `updateDeploySettings(input: { healthPath })` (owners and admins, like the other deploy settings; starts with
 * `/`, at most 2048 characters), read back in `Application.deploySettings.healthPath`; `Application.health`
 * (`UNKNOWN`/`HEALTHY`/`UNHEALTHY`) and `healthCheckedAt`. Members get FORBIDDEN, another organization NOT_FOUND.
 */
import { describe, expect, it } from "vitest";
import { addMember, createOrg } from "../helpers/seed.ts";
import { gql, useTestServer } from "../helpers/server.ts";
import { seededApplication } from "./deploy-helpers.ts";

const t = useTestServer();

const UPDATE = `mutation($id: ID!, $input: DeploySettingsInput!) {
  updateDeploySettings(applicationId: $id, input: $input) { healthPath autoDeploy } }`;
const READ = `query($id: ID!) { application(id: $id) { health healthCheckedAt deploySettings { healthPath } } }`;

interface ReadData {
  application: { health: string; healthCheckedAt: string | null; deploySettings: { healthPath: string } };
}

describe("health path setting and Application.health", () => {
  it("defaults to / and UNKNOWN; owners and admins set a valid path; bad paths are BAD_USER_INPUT", async () => {
    const app = await seededApplication(t.db.knex);
    const owner = { apiKey: app.owner.apiKey };
    const read = await gql<ReadData>(t.skiff.url, READ, { id: app.applicationId }, owner);
    expect(read.errors).toBeUndefined();
    expect(read.data!.application).toEqual({
      health: "UNKNOWN",
      healthCheckedAt: null,
      deploySettings: { healthPath: "/" },
    });

    const set = await gql(
      t.skiff.url,
      UPDATE,
      { id: app.applicationId, input: { healthPath: "/healthz?full=1" } },
      owner,
    );
    expect(set.errors).toBeUndefined();
    expect(set.data).toEqual({ updateDeploySettings: { healthPath: "/healthz?full=1", autoDeploy: false } });

    const admin = await addMember(t.db.knex, app.organizationId, "admin");
    const longest = `/${"a".repeat(2047)}`;
    const byAdmin = await gql(t.skiff.url, UPDATE, { id: app.applicationId, input: { healthPath: longest } }, admin);
    expect(byAdmin.errors).toBeUndefined();

    for (const healthPath of ["healthz", "", `/${"a".repeat(2048)}`, "/health z", "/health#x", "/a\nb"]) {
      const bad = await gql(t.skiff.url, UPDATE, { id: app.applicationId, input: { healthPath } }, owner);
      expect(bad.errors?.[0]?.extensions?.code, JSON.stringify(healthPath)).toBe("BAD_USER_INPUT");
    }
    // The push filters' globs: each refusal names its field.
    for (const [input, field] of [
      [{ branchFilter: "x".repeat(201) }, "branchFilter"],
      [{ branchFilter: "main\nother" }, "branchFilter"],
      [{ watchPaths: Array.from({ length: 51 }, (_, i) => `src/${i}/**`) }, "watchPaths"],
      [{ watchPaths: ["ok/**", "y".repeat(201)] }, "watchPaths.1"],
    ] as const) {
      const bad = await gql(t.skiff.url, UPDATE, { id: app.applicationId, input }, owner);
      expect(bad.errors?.[0]?.extensions, field).toMatchObject({
        code: "BAD_USER_INPUT",
        fieldErrors: { [field]: [expect.any(String)] },
      });
    }
    // Other settings in the same input are left alone when healthPath is omitted, and vice versa.
    await gql(t.skiff.url, UPDATE, { id: app.applicationId, input: { autoDeploy: true } }, owner);
    const after = await gql<ReadData>(t.skiff.url, READ, { id: app.applicationId }, owner);
    expect(after.data!.application.deploySettings.healthPath).toBe(longest);
  });

  it("members cannot change it (FORBIDDEN); another organization gets NOT_FOUND", async () => {
    const app = await seededApplication(t.db.knex);
    const member = await addMember(t.db.knex, app.organizationId, "member", { projectIds: [app.projectId] });
    const byMember = await gql(t.skiff.url, UPDATE, { id: app.applicationId, input: { healthPath: "/m" } }, member);
    expect(byMember.errors?.[0]?.extensions?.code).toBe("FORBIDDEN");
    // The member still reads the health fields of an application it can see.
    const read = await gql<ReadData>(t.skiff.url, READ, { id: app.applicationId }, member);
    expect(read.data!.application.deploySettings.healthPath).toBe("/");

    const other = await createOrg(t.db.knex);
    const foreign = await gql(t.skiff.url, UPDATE, { id: app.applicationId, input: { healthPath: "/x" } }, other.owner);
    expect(foreign.errors?.[0]?.extensions?.code).toBe("NOT_FOUND");
    const foreignRead = await gql(t.skiff.url, READ, { id: app.applicationId }, other.owner);
    expect(foreignRead.errors?.[0]?.extensions?.code).toBe("NOT_FOUND");
    const stored = await t.db.knex("applications").where({ id: app.applicationId }).first("health_path");
    expect(stored.healthPath).toBe("/");
  });

  it("shows the stored health and when it was checked", async () => {
    const app = await seededApplication(t.db.knex);
    const checkedAt = new Date("2026-11-22T10:00:00.000Z");
    for (const [stored, shown] of [
      ["healthy", "HEALTHY"],
      ["unhealthy", "UNHEALTHY"],
    ] as const) {
      await t.db
        .knex("applications")
        .where({ id: app.applicationId })
        .update({ health: stored, health_checked_at: checkedAt });
      const read = await gql<ReadData>(t.skiff.url, READ, { id: app.applicationId }, { apiKey: app.owner.apiKey });
      expect(read.data!.application).toMatchObject({ health: shown, healthCheckedAt: checkedAt.toISOString() });
    }
  });
});
