/**
 * The generated OpenAPI documents: /api/openapi.json (and its copy at /api/site-import/openapi.json,
 * which must not be read as an import id) holds an operation for every published row that declares a contract,
 * with the security schemes and error bodies; the published rows that declare none are listed here; request
 * validation and the document share one schema; real responses validate (also across every persona in
 * test/access/isolation-matrix.test.ts); `@redocly/cli lint` (recommended rules) finds no error in either document.
 */
import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { restRoutes } from "../../src/modules/index.ts";
import { createBody } from "../../src/modules/webhooks/webhook.input.ts";
import { openApiPath } from "../../src/shared/openapi/generate.ts";
import { documentedRows, undocumentedRows } from "../../src/shared/openapi/rows.ts";
import { fetchOpenApi, type OpenApiDoc, responseChecker } from "../helpers/openapi-validator.ts";
import { createOrg } from "../helpers/seed.ts";
import { useTestServer } from "../helpers/server.ts";

const t = useTestServer();
const run = promisify(execFile);

/** `METHOD /fastify/:path` of every operation of a document. */
function operationsOf(doc: OpenApiDoc): string[] {
  return Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.keys(item).map((verb) => `${verb.toUpperCase()} ${path}`),
  );
}

describe("GET /api/openapi.json", () => {
  it("covers every published row declaring a contract, with the security schemes", async () => {
    const doc = await fetchOpenApi(`${t.skiff.url}/api/openapi.json`);
    expect(doc.openapi).toBe("3.1.0");
    const expected = documentedRows(restRoutes, "public").map((r) => `${r.method} ${openApiPath(r.path)}`);
    expect(operationsOf(doc).sort()).toEqual(expected.sort());
    // The paths the specification names are among them.
    expect(operationsOf(doc)).toEqual(
      expect.arrayContaining([
        "POST /api/site-import",
        "POST /api/site-import/preview",
        "GET /api/site-import",
        "GET /api/site-import/{id}",
        "POST /api/v1/orgs/{org_id}/webhooks",
        "POST /api/v1/orgs/{org_id}/webhooks/{webhook_uuid}/test",
        "POST /api/payment-gateway/events",
      ]),
    );
    // The procedure surface is unpublished: not in it.
    expect(operationsOf(doc).filter((o) => o.includes("siteImport."))).toEqual([]);
    const schemes = Object.values((doc.components as { securitySchemes: Record<string, unknown> }).securitySchemes);
    expect(schemes).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ type: "http", scheme: "bearer" }),
        expect.objectContaining({ type: "apiKey", in: "header", name: "x-api-key" }),
        expect.objectContaining({ type: "apiKey", in: "cookie", name: "skiff.session_token" }),
      ]),
    );
    const importOp = doc.paths["/api/site-import"]!.post!;
    expect(Object.keys(importOp.responses).sort()).toEqual([
      "200",
      "202",
      "400",
      "401",
      "403",
      "404",
      "409",
      "413",
      "415",
      "422",
      "500",
    ]);
    // Every route that reads a body documents what is refused before it runs.
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const [method, operation] of Object.entries(item as Record<string, { responses: object }>)) {
        if (!["post", "put", "delete"].includes(method)) continue;
        expect(Object.keys(operation.responses), `${method} ${path}`).toEqual(
          expect.arrayContaining(["400", "413", "415"]),
        );
      }
    }
  });

  it("lists the published rows that declare no contract (add `doc` to a row to publish it)", () => {
    // Only the agent document's own row (it describes the agent API, in its own document) declares none.
    expect(undocumentedRows(restRoutes).sort()).toEqual(["GET /api/agent/openapi.json"]);
  });

  it("is also served at /api/site-import/openapi.json, without credentials, never as an import id", async () => {
    const res = await fetch(`${t.skiff.url}/api/site-import/openapi.json`);
    expect(res.status).toBe(200);
    const copy = (await res.json()) as OpenApiDoc;
    expect(copy).toEqual(await fetchOpenApi(`${t.skiff.url}/api/openapi.json`));
  });

  it("documents the very schema the row validates with", async () => {
    const doc = await fetchOpenApi(`${t.skiff.url}/api/openapi.json`);
    const op = doc.paths["/api/v1/orgs/{org_id}/webhooks"]!.post as unknown as {
      requestBody: { content: { "application/json": { schema: Record<string, unknown> } } };
    };
    const { $schema: _s, ...fromRow } = z.toJSONSchema(createBody, { target: "draft-2020-12", io: "input" });
    expect(op.requestBody.content["application/json"].schema).toEqual(fromRow);
  });

  it("validates real answers, and rejects a body breaking the documented shape", async () => {
    const docs = [
      await fetchOpenApi(`${t.skiff.url}/api/openapi.json`),
      await fetchOpenApi(`${t.skiff.url}/api/agent/openapi.json`),
    ];
    const check = responseChecker(docs);
    const org = await createOrg(t.db.knex);
    const headers = { "x-api-key": org.owner.apiKey, "content-type": "application/json" };
    const calls: Array<[route: string, url: string, init: RequestInit, status: number]> = [
      ["GET /api/site-import", "/api/site-import?limit=5", { headers }, 200],
      ["GET /api/site-import", "/api/site-import?limit=500", { headers }, 400],
      ["GET /api/site-import/:id", "/api/site-import/imp_missing", { headers }, 404],
      ["POST /api/site-import/preview", "/api/site-import/preview", { method: "POST", headers, body: "{}" }, 400],
      [
        "POST /api/site-import/preview",
        "/api/site-import/preview",
        {
          method: "POST",
          headers,
          body: JSON.stringify({
            organizationId: org.organizationId,
            name: "shop",
            source: { type: "docker", dockerImage: "nginx:1" },
          }),
        },
        200,
      ],
      ["GET /api/v1/orgs/:org_id/webhooks", `/api/v1/orgs/${org.organizationId}/webhooks`, { headers }, 200],
      ["GET /api/v1/orgs/:org_id/webhooks", `/api/v1/orgs/${org.organizationId}/webhooks`, {}, 401],
      [
        "POST /api/v1/orgs/:org_id/webhooks",
        `/api/v1/orgs/${org.organizationId}/webhooks`,
        { method: "POST", headers, body: JSON.stringify({ url: "http://x", events: [] }) },
        400,
      ],
    ];
    for (const [route, url, init, status] of calls) {
      const res = await fetch(`${t.skiff.url}${url}`, init);
      const text = await res.text();
      expect(res.status, `${route}: ${text.slice(0, 300)}`).toBe(status);
      expect(check(route, res.status, text), route).toEqual([]);
    }
    expect(check("GET /api/site-import/:id", 404, JSON.stringify({ message: "no `error` field" }))).toHaveLength(1);
    expect(check("GET /api/site-import", 200, JSON.stringify([{ id: "imp_1" }]))).toHaveLength(1);
    expect(check("GET /api/site-import", 418, "{}")).toEqual(["GET /api/site-import: status 418 is not documented"]);
  });

  it("passes `redocly lint` with the recommended rules (no error)", async () => {
    const dir = await mkdtemp(join(tmpdir(), "skiff-openapi-"));
    try {
      const files = [];
      for (const [name, path] of [
        ["public.json", "/api/openapi.json"],
        ["agent.json", "/api/agent/openapi.json"],
      ] as const) {
        const file = join(dir, name);
        await writeFile(file, JSON.stringify(await fetchOpenApi(`${t.skiff.url}${path}`)));
        files.push(file);
      }
      const bin = join(process.cwd(), "node_modules", ".bin", "redocly");
      // Exit status 1 (execFile rejects) on any error; warnings do not fail it.
      const { stdout, stderr } = await run(bin, ["lint", "--extends=recommended", "--format=summary", ...files], {
        env: { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true" },
      });
      expect(`${stdout}${stderr}`).not.toMatch(/^error /m);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
