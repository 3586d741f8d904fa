/**
 * The text `npm start` prints once on first run: the credentials, a GraphQL query, and a site import that
 * works on that fresh instance as printed (its first step adds the container registry an import needs,
 * unless SKIFF_DEFAULT_REGISTRY_URL provides one).
 */
import { randomBytes } from "node:crypto";
import type { FirstRun } from "../modules/organizations/index.ts";

/** Quotes `text` for a POSIX shell (single quotes). */
function shellQuote(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}

/**
 * A `curl` command POSTing `body` as JSON to `url` with the API key; `apiKey` null: the key the operator supplied,
 * read from the shell's `$SKIFF_BOOTSTRAP_API_KEY` (never printed).
 */
function curl(url: string, apiKey: string | null, body: unknown): string {
  return [
    `curl -s ${url}`,
    `-H 'content-type: application/json'`,
    apiKey === null ? `-H "authorization: Bearer $SKIFF_BOOTSTRAP_API_KEY"` : `-H 'authorization: Bearer ${apiKey}'`,
    `-d ${shellQuote(JSON.stringify(body))}`,
  ].join(" \\\n    ");
}

/** Which first-run credentials the operator supplied (SKIFF_BOOTSTRAP_PASSWORD / SKIFF_BOOTSTRAP_API_KEY). */
export interface SuppliedCredentials {
  password: boolean;
  apiKey: boolean;
}

/**
 * Renders the banner for the instance at `url` (e.g. `http://127.0.0.1:4000`). With `defaultRegistry` false the
 * import example starts by creating a registry entry (`docker.io`, anonymous) in the new organization.
 * Only generated secrets are printed: a password or API key the operator supplied is named by
 * its variable instead, and the examples read the key from `$SKIFF_BOOTSTRAP_API_KEY`.
 */
export function firstRunBanner(
  url: string,
  first: FirstRun,
  defaultRegistry: boolean,
  supplied: SuppliedCredentials = { password: false, apiKey: false },
): string {
  const key = supplied.apiKey ? null : first.apiKey;
  const query =
    "{ viewer { user { email } activeOrganization { name projects(first: 5) { totalCount edges { node { name } } } } } }";
  const registry = {
    query: "mutation($i: CreateContainerRegistryInput!) { createContainerRegistry(input: $i) { id name } }",
    variables: { i: { organizationId: first.organizationId, name: "Docker Hub", url: "docker.io" } },
  };
  const site = {
    organizationId: first.organizationId,
    name: "hello-nginx",
    source: { type: "docker", dockerImage: "nginx:1.27" },
    database: { type: "postgres", name: "hello", user: "hello", password: randomBytes(12).toString("base64url") },
    envVars: { APP_ENV: "production" },
    port: 80,
  };
  const steps = defaultRegistry
    ? `Import a site (uses the platform default registry, SKIFF_DEFAULT_REGISTRY_URL):
  ${curl(`${url}/api/site-import`, key, site)}`
    : `Import a site. An import needs a container registry; step 1 adds one (Docker Hub, anonymous):
  1. ${curl(`${url}/graphql`, key, registry)}
  2. ${curl(`${url}/api/site-import`, key, site)}`;
  return `
================ Skiff first run ================
Owner account : ${first.email}
Password      : ${supplied.password ? "(the one you set in SKIFF_BOOTSTRAP_PASSWORD)" : first.password}
API key       : ${supplied.apiKey ? "(the one you set in SKIFF_BOOTSTRAP_API_KEY)" : first.apiKey}
Organization  : ${first.organizationId} (Default, plan unlimited)
Dashboard     : ${url}/ (sign in with the owner account)
(Generated values are shown once. The API key is stored hashed and cannot be read again.)

Try it:
  ${curl(`${url}/graphql`, key, { query })}

${steps}
More: docs/site-imports.md (walkthrough) and examples/.
=================================================
`;
}
