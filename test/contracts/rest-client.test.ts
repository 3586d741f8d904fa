/**
 * The typed REST client (clients/rest) against a real server: its committed document is the served one, calls
 * return the typed `data` of a 2xx and the typed `error` body otherwise. The types are checked at compile time by
 * `npm run typecheck` (the `@ts-expect-error` lines fail it when a generated type stops refusing a wrong call).
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createRestClient, type SiteImport, type SiteImportPreview } from "../../clients/rest/index.ts";
import { seededApplication } from "../deployments/deploy-helpers.ts";
import { fetchOpenApi } from "../helpers/openapi-validator.ts";
import { createOrg } from "../helpers/seed.ts";
import { gql, useTestServer } from "../helpers/server.ts";

const t = useTestServer({ SKIFF_WORKER: "false" });

describe("clients/rest", () => {
  it("was generated from the document the server serves (else run `npm run codegen`)", async () => {
    const committed = JSON.parse(
      await readFile(join(process.cwd(), "clients", "rest", "generated", "openapi.json"), "utf8"),
    ) as unknown;
    expect(committed).toEqual(await fetchOpenApi(`${t.skiff.url}/api/openapi.json`));
  });

  it("calls the real server with typed requests and answers", async () => {
    const org = await createOrg(t.db.knex);
    const client = createRestClient({ url: `${t.skiff.url}/`, apiKey: org.owner.apiKey });

    const preview = await client.api.previewSiteImport({
      organizationId: org.organizationId,
      name: "typed-shop",
      source: { type: "docker", dockerImage: "nginx:1" },
    });
    expect(preview.status).toBe(200);
    const data: SiteImportPreview = preview.data;
    expect(data.resources.project.name).toBe("typed-shop");

    const list = await client.api.listSiteImports({ limit: 5 });
    expect(list.status).toBe(200);
    const rows: SiteImport[] = list.data;
    expect(rows).toEqual([]);

    const invalid = await client.api.listSiteImports({ limit: 500 });
    expect(invalid.status).toBe(400);
    expect(invalid.error).toMatchObject({ error: expect.any(String), details: { fieldErrors: expect.any(Object) } });

    const anonymous = createRestClient({ url: t.skiff.url });
    const refused = await anonymous.api.listSiteImports();
    expect(refused.status).toBe(401);
    expect(refused.error).toMatchObject({ error: expect.any(String) });
    const lookup = await anonymous.api.lookupDocsHostname({ hostname: "docs.unknown.test" });
    expect(lookup.status).toBe(404);

    // The deploy trigger: its token is the credential; `data` is either documented 2xx body.
    const app = await seededApplication(t.db.knex, { source: JSON.stringify({ dockerImage: "nginx:1" }) });
    const read = await gql<{ application: { deployWebhookUrl: string } }>(
      t.skiff.url,
      `query($id: ID!) { application(id: $id) { deployWebhookUrl } }`,
      { id: app.applicationId },
      { apiKey: app.owner.apiKey },
    );
    const token = read.data!.application.deployWebhookUrl.split("/api/deploy/")[1]!;
    const queued = await anonymous.api.triggerDeployment(token, { title: "Typed", commitSha: "0d1a26e67d8f" });
    expect(queued.status).toBe(202);
    expect("deploymentId" in queued.data && queued.data.deploymentId).toMatch(/^dpl_/);
    const unknown = await anonymous.api.triggerDeployment("x".repeat(43));
    expect(unknown.status).toBe(404);
    expect(unknown.error).toMatchObject({ error: "Unknown deploy URL" });

    if (process.env.NEVER) {
      // Compile-time only: wrong shapes are refused by the generated types.
      // @ts-expect-error limit is a number
      await client.api.listSiteImports({ limit: "5" });
      // @ts-expect-error a site import needs a name and a source
      await client.api.importSite({ organizationId: org.organizationId });
    }
  });
});
