/**
 * The machine-readable description (spec: Versioning): OpenAPI 3.1 at version 2.1.0, served without
 * credentials at /api/agent/openapi.json, and every response of the three endpoints — successes with and
 * without nullable values, 400, 401 and 404 — validates against it (ajv, JSON Schema 2020-12).
 */
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { describe, expect, it } from "vitest";
import { addMember, createAgentTokenFor, createOrg, createProjects } from "../helpers/seed.ts";
import { useTestServer } from "../helpers/server.ts";
import { type AgentResponse, agentGet } from "./agent-client.ts";

const t = useTestServer();

type OpenApi = {
  openapi: string;
  info: { version: string };
  paths: Record<string, { get: { responses: Record<string, unknown>; parameters?: unknown[] } }>;
  components: { securitySchemes: Record<string, Record<string, string>> };
  security: unknown[];
};

async function fetchDocument(): Promise<OpenApi> {
  const res = await fetch(`${t.skiff.url}/api/agent/openapi.json`);
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toContain("application/json");
  return (await res.json()) as OpenApi;
}

/** A validator of `path`'s documented response for `status`, resolving `$ref`s inside the served document. */
function validatorFor(doc: OpenApi) {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats.default(ajv);
  ajv.addSchema(doc as object, "agent-openapi");
  const pointer = (s: string) => s.replaceAll("~", "~0").replaceAll("/", "~1");
  return (path: string, res: AgentResponse) => {
    const responses = doc.paths[path]?.get.responses ?? {};
    expect(responses, `${path} documents ${res.status}`).toHaveProperty(String(res.status));
    let ref = `agent-openapi#/paths/${pointer(path)}/get/responses/${res.status}`;
    const declared = responses[String(res.status)] as { $ref?: string };
    if (declared.$ref) ref = `agent-openapi${declared.$ref}`;
    const validate = ajv.compile({ $ref: `${ref}/content/application~1json/schema` });
    const valid = validate(res.body);
    expect(validate.errors ?? [], `${path} ${res.status}: ${JSON.stringify(res.body).slice(0, 300)}`).toEqual([]);
    expect(valid).toBe(true);
  };
}

describe("GET /api/agent/openapi.json", () => {
  it("serves OpenAPI 3.1 at version 2.1.0 without credentials, with both security schemes", async () => {
    const doc = await fetchDocument();
    expect(doc.openapi).toMatch(/^3\.1\./);
    expect(doc.info.version).toBe("2.1.0");
    expect(Object.keys(doc.paths).sort()).toEqual([
      "/api/agent/application",
      "/api/agent/deployments",
      "/api/agent/projects",
      "/api/agent/whoami",
    ]);
    expect(Object.values(doc.components.securitySchemes)).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ type: "apiKey", in: "header", name: "x-api-key" }),
        expect.objectContaining({ type: "http", scheme: "bearer" }),
      ]),
    );
    expect(doc.security).toHaveLength(2);
  });

  it("describes every response of the three endpoints", async () => {
    const doc = await fetchDocument();
    const check = validatorFor(doc);
    const org = await createOrg(t.db.knex);
    const [p1, p2] = await createProjects(t.db.knex, org.organizationId, 2, {
      environments: 2,
      applicationsPerEnvironment: 2,
      deploymentsPerApplication: 3,
      domainsPerApplication: 1,
    });
    await t.db.knex("projects").where({ id: p1 }).update({ description: "described" });
    const apps = (await t.db.knex("applications").where({ project_id: p2 }).orderBy("id")).map((r) => r.id as string);
    // Nullable values everywhere they are allowed.
    await t.db
      .knex("applications")
      .where({ id: apps[0] })
      .update({ application_status: null, build_type: null, source_type: null });
    await t.db.knex("domains").where({ application_id: apps[0] }).update({ port: null, https: null });
    await t.db.knex("deployments").where({ application_id: apps[0] }).update({ status: null });
    await t.db
      .knex("deployments")
      .where({ application_id: apps[1] })
      .update({ description: "d", started_at: new Date(), finished_at: new Date() });
    const owner = await createAgentTokenFor(t.db.knex, org.organizationId, org.owner);
    const limited = await addMember(t.db.knex, org.organizationId, "member", { applicationIds: [apps[1]!] });
    const member = await createAgentTokenFor(t.db.knex, org.organizationId, limited);
    const other = await createOrg(t.db.knex);
    const [foreignProject] = await createProjects(t.db.knex, other.organizationId, 1, {
      applicationsPerEnvironment: 1,
    });
    const foreign = (await t.db.knex("applications").where({ project_id: foreignProject }).first()).id;

    const cases: Array<[path: string, query: string, token: string | undefined, status: number]> = [
      ["/api/agent/projects", "", owner, 200],
      ["/api/agent/projects", "", member, 200],
      ["/api/agent/projects", "", undefined, 401],
      ["/api/agent/projects", "", org.owner.apiKey, 401],
      ...apps.flatMap(
        (id): Array<[string, string, string | undefined, number]> => [
          ["/api/agent/application", `?applicationId=${id}`, owner, 200],
          ["/api/agent/deployments", `?applicationId=${id}`, owner, 200],
          ["/api/agent/deployments", `?applicationId=${id}&limit=1`, owner, 200],
        ],
      ),
      ["/api/agent/application", `?applicationId=${apps[0]}`, member, 404],
      ["/api/agent/application", `?applicationId=${foreign}`, owner, 404],
      ["/api/agent/application", "", owner, 400],
      ["/api/agent/application", `?applicationId=${apps[0]}`, "skiff_agt_nope", 401],
      ["/api/agent/deployments", `?applicationId=${foreign}`, owner, 404],
      ["/api/agent/deployments", `?applicationId=${apps[0]}&limit=51`, owner, 400],
      ["/api/agent/deployments", "?limit=x", owner, 400],
      ["/api/agent/deployments", `?applicationId=${apps[0]}`, undefined, 401],
    ];
    for (const [path, query, token, status] of cases) {
      const res = await agentGet(t.skiff.url, `${path}${query}`, token);
      expect(res.status, `${path}${query}`).toBe(status);
      check(path, res);
    }
  });

  it("rejects a body that breaks the documented shape (the check is not vacuous)", async () => {
    const doc = await fetchDocument();
    const ajv = new Ajv2020({ strict: false });
    addFormats.default(ajv);
    ajv.addSchema(doc as object, "agent-openapi");
    const validate = ajv.compile({ $ref: "agent-openapi#/components/schemas/Deployment" });
    const good = {
      deploymentId: "dpl_1",
      status: null,
      title: "t",
      description: null,
      createdAt: "2026-01-01T00:00:00.000Z",
      startedAt: null,
      finishedAt: null,
    };
    expect(validate(good)).toBe(true);
    expect(validate({ ...good, title: null })).toBe(false);
    expect(validate({ ...good, createdAt: "yesterday" })).toBe(false);
    const { finishedAt: _f, ...missing } = good;
    expect(validate(missing)).toBe(false);
  });
});
