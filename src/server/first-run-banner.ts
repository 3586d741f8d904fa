/**
 * The text `npm start` prints once on first run: the credentials, a GraphQL query, and a site import that
 * works on that fresh instance as printed (its first step adds the container registry an import needs,
 * unless SKIFF_DEFAULT_REGISTRY_URL provides one).
 */
import { randomBytes } from "node:crypto";
import type { FirstRun } from "../modules/organizations/first-run.service.ts";

/** Quotes `text` for a POSIX shell (single quotes). */
function shellQuote(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}

/** A `curl` command POSTing `body` as JSON to `url` with the API key. */
function curl(url: string, apiKey: string, body: unknown): string {
  return [
    `curl -s ${url}`,
    `-H 'content-type: application/json'`,
    `-H 'authorization: Bearer ${apiKey}'`,
    `-d ${shellQuote(JSON.stringify(body))}`,
  ].join(" \\\n    ");
}

/**
 * Renders the banner for the instance at `url` (e.g. `http://127.0.0.1:4000`). With `defaultRegistry` false the
 * import example starts by creating a registry entry (`docker.io`, anonymous) in the new organization.
 */
export function firstRunBanner(url: string, first: FirstRun, defaultRegistry: boolean): string {
  const query =
    "{ viewer { user { email } activeOrganization { name projects(first: 5) { totalCount edges { node { name } } } } } }";
  const registry = {
    query: "mutation($i: CreateContainerRegistryInput!) { createContainerRegistry(input: $i) { id name } }",
    variables: { i: { organizationId: first.organizationId, name: "Docker Hub", url: "docker.io" } },
  };
  const site = {
    organizationId: first.organizationId,
    name: "hello-docker",
    source: { type: "docker", dockerImage: "nginx:1.27" },
    database: { type: "postgres", name: "hello", user: "hello", password: randomBytes(12).toString("base64url") },
    envVars: { APP_ENV: "production" },
    port: 80,
  };
  const steps = defaultRegistry
    ? `Import a site (uses the platform default registry, SKIFF_DEFAULT_REGISTRY_URL):
  ${curl(`${url}/api/site-import`, first.apiKey, site)}`
    : `Import a site. An import needs a container registry; step 1 adds one (Docker Hub, anonymous):
  1. ${curl(`${url}/graphql`, first.apiKey, registry)}
  2. ${curl(`${url}/api/site-import`, first.apiKey, site)}`;
  return `
================ Skiff first run ================
Owner account : ${first.email}
Password      : ${first.password}
API key       : ${first.apiKey}
Organization  : ${first.organizationId} (Default, plan unlimited)
(These are shown once. The API key is stored hashed and cannot be read again.)

Try it:
  ${curl(`${url}/graphql`, first.apiKey, { query })}

${steps}
More: README.md, "Site import" (walkthrough and examples/).
=================================================
`;
}
