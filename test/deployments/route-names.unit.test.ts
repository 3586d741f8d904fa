/**
 * Names of the objects rendered per domain (deployment.manifests.ts `domainObjectName`): the Ingress, or the
 * HTTPRoute and Certificate, and the TLS Secret of each host are unique per host — also for hosts whose readable
 * forms are one (`qa-x.example.com`, `qa.x-example.com`) and for long hosts cut to one prefix — readable, and valid
 * DNS-1123 labels (at most 63 characters) that the schemas accept.
 */
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config.ts";
import {
  DEFAULT_ROUTING,
  domainObjectName,
  type Manifest,
  type RenderInput,
  renderManifests,
  routingSettings,
} from "../../src/modules/deployments/deployment.manifests.ts";
import { validateManifests } from "./k8s-validate.ts";

const LABEL = /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/;

/** Two hosts of one readable form, and two 60+ character hosts alike in their first 60. */
const LONG = `${"a".repeat(20)}.${"b".repeat(20)}.${"c".repeat(20)}`;
const COLLIDING = [
  ["qa-x.example.com", "qa.x-example.com"],
  [`${LONG}.one.example.com`, `${LONG}.two.example.com`],
];

/** The render of an application with a long name and `hosts` as https domains. */
function render(hosts: string[], routing = DEFAULT_ROUTING): Manifest[] {
  const input: RenderInput = {
    deploymentId: "deployment_01jdeploy0000000000000000",
    application: {
      appName: "storefront-with-a-long-name-7k2mq3",
      sourceType: "docker",
      buildType: null,
      port: 3000,
      source: { dockerImage: "nginx:1.27" },
    },
    domains: hosts.map((host) => ({ host, port: null, https: true })),
    env: {},
    databases: [],
    registry: null,
    routing,
  };
  return renderManifests(input);
}

// biome-ignore lint/suspicious/noExplicitAny: rendered objects inspected field by field.
const ofKind = (manifests: Manifest[], kind: string) => manifests.filter((m) => m.kind === kind) as any[];

describe("names of a domain's objects", () => {
  for (const hosts of COLLIDING) {
    it(`differ for ${hosts[0]!.slice(0, 24)}… and its look-alike (Ingress and TLS Secret)`, () => {
      const manifests = render(hosts);
      validateManifests(manifests);
      const ingresses = ofKind(manifests, "Ingress");
      expect(ingresses.map((i) => i.spec.rules[0].host)).toEqual(hosts);
      const names = ingresses.map((i) => i.metadata.name as string);
      const secrets = ingresses.map((i) => i.spec.tls[0].secretName as string);
      expect(new Set(names).size).toBe(2);
      expect(new Set(secrets).size).toBe(2);
      for (const name of [...names, ...secrets]) expect(name).toMatch(LABEL);
    });

    it(`differ for ${hosts[0]!.slice(0, 24)}… and its look-alike (HTTPRoute, Certificate and its Secret)`, () => {
      const gateway = routingSettings(
        loadConfig({ SKIFF_ROUTING: "gateway", SKIFF_HTTPROUTE_GATEWAY: "gateway/public" }),
      );
      const manifests = render(hosts, gateway);
      validateManifests(manifests);
      const routes = ofKind(manifests, "HTTPRoute");
      const certificates = ofKind(manifests, "Certificate");
      expect(routes.map((r) => r.spec.hostnames)).toEqual(hosts.map((h) => [h]));
      expect(certificates.map((c) => c.spec.dnsNames)).toEqual(hosts.map((h) => [h]));
      const names = [routes, certificates].map((list) => new Set(list.map((o) => o.metadata.name as string)));
      expect(names.map((n) => n.size)).toEqual([2, 2]);
      const secrets = new Set(certificates.map((c) => c.spec.secretName as string));
      expect(secrets.size).toBe(2);
      for (const name of [...names.flatMap((n) => [...n]), ...secrets]) expect(name).toMatch(LABEL);
      // The same host has the same TLS Secret whichever routing renders it.
      expect([...secrets]).toEqual(ofKind(render(hosts), "Ingress").map((i) => i.spec.tls[0].secretName));
    });
  }

  it("read as the app and host, cut to fit, then the first 8 hex digits of the host's SHA-256", () => {
    const hash = (host: string) => createHash("sha256").update(host).digest("hex").slice(0, 8);
    const [ingress] = ofKind(render(["shop.example.com"]), "Ingress");
    expect(ingress.metadata.name).toBe(
      `storefront-with-a-long-name-7k2mq3-shop-example-com-${hash("shop.example.com")}`,
    );
    expect(ingress.spec.tls[0].secretName).toBe(`shop-example-com-${hash("shop.example.com")}-tls`);
    const long = `${LONG}.one.example.com`;
    const name = domainObjectName(long, long, "-tls");
    expect(name).toHaveLength(63);
    expect(name).toBe(`${"a".repeat(20)}-${"b".repeat(20)}-${"c".repeat(8)}-${hash(long)}-tls`);
    // A cut that ends on a separator drops it: never `--` before the hash.
    expect(domainObjectName(`${"a".repeat(53)}.b`, "x.example.com")).toBe(`${"a".repeat(53)}-${hash("x.example.com")}`);
    expect(domainObjectName("Shop.Example.com", "Shop.Example.com")).toBe(
      domainObjectName("shop.example.com", "shop.example.com"),
    );
  });
});
