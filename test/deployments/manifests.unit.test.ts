/**
 * Rendered manifests validate against the Kubernetes schemas (kubernetes-models) for every source type and build
 * type and every database type; names follow DNS rules and the database Service carries DB_HOST's first label.
 */
import { describe, expect, it } from "vitest";
import { type RenderInput, renderManifests } from "../../src/modules/deployments/deployment.manifests.ts";
import { validateManifests } from "./k8s-validate.ts";

const base: RenderInput = {
  deploymentId: "deployment_01jdeploy0000000000000000",
  application: {
    appName: "shop-7k2mq3",
    sourceType: "docker",
    buildType: null,
    port: 3000,
    source: { dockerImage: "nginx:1.27" },
  },
  domains: [
    { host: "shop.example.com", port: null, https: true },
    { host: "admin.shop.example.com", port: 8080, https: false },
  ],
  env: { APP_ENV: "production" },
  databases: [],
  registry: "registry.example.com/acme",
};

const sources: Array<[string, RenderInput["application"]]> = [
  ["docker", base.application],
  [
    "github + nixpacks",
    { ...base.application, sourceType: "github", buildType: "nixpacks", source: { repo: "acme/shop", branch: "main" } },
  ],
  [
    "gitlab + dockerfile",
    {
      ...base.application,
      sourceType: "gitlab",
      buildType: "dockerfile",
      source: { repo: "acme/shop", buildPath: "/web" },
    },
  ],
  [
    "git + dockerfile",
    {
      ...base.application,
      sourceType: "git",
      buildType: "dockerfile",
      source: { customGitUrl: "https://git.example.com/acme/shop.git" },
    },
  ],
];

describe("rendered manifests", () => {
  for (const [label, application] of sources) {
    it(`validate for a ${label} source`, () => {
      const manifests = renderManifests({
        ...base,
        application,
        commitSha: "0123456789abcdef0123456789abcdef01234567",
      });
      validateManifests(manifests);
      const kinds = manifests.map((m) => m.kind);
      expect(kinds.filter((k) => k === "Ingress")).toHaveLength(2);
      expect(kinds.includes("Job")).toBe(application.sourceType !== "docker");
      const deployment = manifests.find((m) => m.kind === "Deployment") as unknown as {
        spec: { template: { spec: { containers: Array<{ image: string }> } } };
      };
      const image = deployment.spec.template.spec.containers[0]!.image;
      if (application.sourceType === "docker") expect(image).toBe("nginx:1.27");
      else expect(image).toBe("registry.example.com/acme/shop-7k2mq3:0123456789abcdef0123456789abcdef01234567");
      for (const m of manifests) expect(m.metadata.name).toMatch(/^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/);
    });
  }

  for (const type of ["postgres", "mysql", "mariadb", "mongodb"] as const) {
    it(`validate with a ${type} database whose Service is named after DB_HOST`, () => {
      const manifests = renderManifests({
        ...base,
        databases: [
          {
            type,
            name: "shop",
            username: "shop_user",
            password: "pw",
            serviceHost: "shop-7k2mq3-db.svc.cluster.local",
          },
        ],
      });
      validateManifests(manifests);
      expect(
        manifests
          .filter((m) => m.metadata.name === "shop-7k2mq3-db")
          .map((m) => m.kind)
          .sort(),
      ).toEqual(["Service", "StatefulSet"]);
    });
  }

  it("are refused by the validator when broken (the check is real)", () => {
    const [secret, ...rest] = renderManifests(base);
    expect(() => validateManifests([{ ...secret!, type: 42 } as never, ...rest])).toThrow(/Secret/);
  });
});
