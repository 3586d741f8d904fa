/**
 * SKIFF_ROUTING=gateway through the `kubernetes` deployer against the fake API server (test/helpers/kube-api.ts):
 * an application's `https` domain is applied as a Gateway API HTTPRoute on the configured Gateway and listener
 * plus a cert-manager Certificate, a plain domain as an HTTPRoute alone, at their API groups' paths (the kinds
 * deploy/base/rbac.yaml grants), and no Ingress; everything applied validates strictly (unknown fields refused).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningSkiff } from "../../src/server/start.ts";
import { namespaceOf } from "../../src/shared/tenant-namespace.ts";
import type { TestDatabase } from "../helpers/db.ts";
import type { KubeApi, KubeObject } from "../helpers/kube-api.ts";
import { gql } from "../helpers/server.ts";
import { addDomain, seededApplication } from "./deploy-helpers.ts";
import { validateManifests } from "./k8s-validate.ts";
import { completeRollouts, type KubeSkiff, startKubeSkiff } from "./kube-skiff.ts";

const NAMESPACE = "skiff-test";
let t: KubeSkiff;
let db: TestDatabase;
let skiff: RunningSkiff;
let kube: KubeApi;
beforeAll(async () => {
  t = await startKubeSkiff(NAMESPACE, {
    SKIFF_ROUTING: "gateway",
    SKIFF_HTTPROUTE_GATEWAY: "gateway/public",
    SKIFF_HTTPROUTE_LISTENER: "https",
    SKIFF_CERT_ISSUER: "acme-prod",
  });
  ({ db, skiff, kube } = t);
});
afterAll(() => t?.stop());

describe("routing through a Gateway", () => {
  it("applies an HTTPRoute per domain and a Certificate per https domain, no Ingress", async () => {
    const app = await seededApplication(db.knex);
    const secure = `${app.appName}.example.test`;
    const plain = `plain-${app.appName}.example.test`;
    await addDomain(db.knex, app.organizationId, app.applicationId, secure);
    await addDomain(db.knex, app.organizationId, app.applicationId, plain, false);
    kube.onApply = completeRollouts;
    const from = kube.requests.length;
    const res = await gql<{ deployApplication: { id: string } }>(
      skiff.url,
      `mutation($id: ID!) { deployApplication(applicationId: $id) { id } }`,
      { id: app.applicationId },
      { apiKey: app.owner.apiKey },
    );
    expect(res.errors).toBeUndefined();
    const id = res.data!.deployApplication.id;
    const deadline = Date.now() + 45_000;
    let row: { status: string } | undefined;
    while (Date.now() < deadline) {
      row = await db.knex("deployments").where({ id }).first();
      if (["done", "error", "cancelled"].includes(row!.status)) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    const logs = await db.knex("deployment_logs").where({ deployment_id: id }).orderBy("id").pluck("text");
    expect(row?.status, logs.join("\n")).toBe("done");

    // The organization's namespaces first (docs/deployments.md "Tenant namespaces"), then the application's objects.
    const tenantKinds = ["Namespace", "RoleBinding", "NetworkPolicy", "ResourceQuota", "LimitRange", "ReferenceGrant"];
    const patches = kube.requests
      .slice(from)
      .filter((r) => r.method === "PATCH" && !tenantKinds.includes(r.body!.kind as string));
    const ns = namespaceOf(app.organizationId);
    expect(patches.map((p) => p.body!.kind)).toEqual([
      "Secret",
      "Deployment",
      "Service",
      "HTTPRoute",
      "Certificate",
      "HTTPRoute",
    ]);
    const routes = patches.filter((p) => p.body!.kind === "HTTPRoute");
    for (const p of routes) expect(p.path).toMatch(`/apis/gateway.networking.k8s.io/v1/namespaces/${ns}/httproutes/`);
    const certificate = patches.find((p) => p.body!.kind === "Certificate")!;
    expect(certificate.path).toMatch(`/apis/cert-manager.io/v1/namespaces/${ns}/certificates/`);
    validateManifests(patches.map((p) => p.body as never));

    const stored = routes.map((p) => kube.get(ns, "HTTPRoute", (p.body as KubeObject).metadata.name)!);
    expect(stored.map((r) => (r.spec as { hostnames: string[] }).hostnames)).toEqual([[secure], [plain]]);
    expect((stored[0]!.spec as { parentRefs: unknown[] }).parentRefs).toEqual([
      {
        group: "gateway.networking.k8s.io",
        kind: "Gateway",
        name: "public",
        namespace: "gateway",
        sectionName: "https",
      },
    ]);
    // The Gateway's namespace may read the certificates' Secrets of the organization's namespace.
    expect(kube.get(ns, "ReferenceGrant", "gateway-certificates")!.spec).toEqual({
      from: [{ group: "gateway.networking.k8s.io", kind: "Gateway", namespace: "gateway" }],
      to: [{ group: "", kind: "Secret" }],
    });
    const cert = kube.get(ns, "Certificate", (certificate.body as KubeObject).metadata.name)!;
    expect(cert.spec).toMatchObject({ dnsNames: [secure], issuerRef: { kind: "ClusterIssuer", name: "acme-prod" } });
  });
});
