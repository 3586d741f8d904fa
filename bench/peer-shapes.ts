/**
 * The shapes of `npm run bench:peer`: each is one Skiff operation and the PostGraphile V5
 * operation that reads the same rows (aliased to Skiff's key names), and how both answers become one comparable
 * value: connections (`edges { node }`, `nodes`) become arrays (or `{ totalCount, nodes }`), times become epoch
 * milliseconds, keys are sorted, and a shape may reshape one side first (e.g. the `steps` jsonb column of
 * `site_imports` into Skiff's list of `{ step, status }`).
 */
import type { PeerSeed } from "./peer-seed.ts";

/** A JSON value as parsed from an answer. */
type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** One GraphQL request. */
export interface Operation {
  query: string;
  variables: Record<string, unknown>;
}

/** A shape: the Skiff operation, the peer's equivalent and how their `data` become comparable. */
export interface Shape {
  /** 1-based number (BENCH_SHAPES selects by it). */
  id: number;
  /** Short label for the tables, e.g. `organization(id:) → projects`. */
  label: string;
  skiff: Operation;
  peer: Operation;
  /** Reshapes Skiff's `data` before normalising (default: as is). */
  fromSkiff?: (data: Json) => Json;
  /** Reshapes PostGraphile's `data` before normalising (default: as is). */
  fromPeer?: (data: Json) => Json;
  /** Timed only when BENCH_SHAPES names it (not part of the default panel). */
  optional?: boolean;
}

/** Skiff's project tree under a project node (today's benchmark query). */
const SKIFF_TREE = `id name environments { id name applications { id name appName applicationStatus
  deployments(first: 3) { id status title createdAt } domains { host port https } } }`;

/** The same tree in PostGraphile's names, aliased to Skiff's. */
const PEER_TREE = `id: rowId name environments: environmentsByProjectId(orderBy: PRIMARY_KEY_ASC) { nodes { id: rowId name
  applications: applicationsByEnvironmentId(orderBy: PRIMARY_KEY_ASC) { nodes { id: rowId name appName applicationStatus
    deployments: deploymentsByApplicationId(first: 3, orderBy: [CREATED_AT_DESC, PRIMARY_KEY_DESC]) {
      nodes { id: rowId status title createdAt } }
    domains: domainsByApplicationId(orderBy: PRIMARY_KEY_ASC) { nodes { host port https } } } } } }`;

/** Fields of a site import record common to both servers (`steps` differs: reshaped on the peer's side). */
const IMPORT_FIELDS =
  "name status projectId applicationId errorStep errorMessage attempts createdAt updatedAt finishedAt";
const STEP_ORDER = ["project_creation", "database_creation", "application_creation", "domain_creation", "deployment"];

/** Fields of a webhook endpoint (`hasSecret` has no column: left out of the comparison). */
const SKIFF_ENDPOINT = "webhookUuid url events isActive description createdByUserId creationDate updateDate";
const PEER_ENDPOINT =
  "webhookUuid: rowId url events isActive description createdByUserId creationDate: createdAt updateDate: updatedAt";
const ATTEMPT_FIELDS = "deliveryId event attempt success responseStatus responseBody errorMessage durationMs createdAt";

/** `data.siteImports.nodes[].steps` (a jsonb object step → status) as Skiff's five steps in order. */
function peerSteps(data: Json): Json {
  const d = data as { siteImports: { nodes: Array<{ steps: Record<string, string> | Json }> } };
  for (const node of d.siteImports.nodes) {
    const steps = node.steps as Record<string, string>;
    node.steps = STEP_ORDER.map((step) => ({ step, status: steps[step] ?? "pending" }));
  }
  return data;
}

/** PostGraphile's operation of shape 1 (the tree under `allProjects`). */
function treePeer(): Operation {
  return {
    query: `query Tree { projects: allProjects(first: 100, orderBy: PRIMARY_KEY_ASC) { nodes { ${PEER_TREE} } } }`,
    variables: {},
  };
}

/** The seven shapes of the panel, and shape 8 (optional), with the seeded ids as variables. */
export function peerShapes(seed: PeerSeed): Shape[] {
  const org = { org: seed.organizationId };
  return [
    {
      id: 1,
      label: "projects(first: 100)",
      skiff: { query: `query Tree { projects(first: 100) { edges { node { ${SKIFF_TREE} } } } }`, variables: {} },
      peer: treePeer(),
    },
    {
      id: 2,
      label: "organization(id:) → projects",
      skiff: {
        query: `query Org($org: ID!) { organization(id: $org) { id name projects(first: 100) { edges { node {
          ${SKIFF_TREE} } } } } }`,
        variables: org,
      },
      peer: {
        query: `query Org($org: String!) { organization: organizationByRowId(rowId: $org) { id: rowId name
          projects: projectsByOrganizationId(first: 100, orderBy: PRIMARY_KEY_ASC) { nodes { ${PEER_TREE} } } } }`,
        variables: org,
      },
    },
    {
      id: 3,
      label: "viewer → activeOrganization → projects",
      skiff: {
        query: `query Viewer { viewer { activeOrganization { id name projects(first: 100) { edges { node {
          ${SKIFF_TREE} } } } } } }`,
        variables: {},
      },
      // PostGraphile has no viewer: the organization by id answers the same rows.
      peer: {
        query: `query Org($org: String!) { organization: organizationByRowId(rowId: $org) { id: rowId name
          projects: projectsByOrganizationId(first: 100, orderBy: PRIMARY_KEY_ASC) { nodes { ${PEER_TREE} } } } }`,
        variables: org,
      },
      fromSkiff: (data) => ({
        organization: (data as { viewer: { activeOrganization: Json } }).viewer.activeOrganization,
      }),
    },
    {
      id: 4,
      label: "project(id:) with its subtree",
      skiff: {
        query: `query Project($id: ID!) { project(id: $id) { description createdAt ${SKIFF_TREE} } }`,
        variables: { id: seed.projectId },
      },
      peer: {
        query: `query Project($id: String!) { project: projectByRowId(rowId: $id) { description createdAt ${PEER_TREE} } }`,
        variables: { id: seed.projectId },
      },
    },
    {
      id: 5,
      label: "application(id:) with environment, project",
      skiff: {
        query: `query Application($id: ID!) { application(id: $id) { id name appName applicationStatus port createdAt
          deployments { id status title createdAt } domains { id host port https }
          environment { id name createdAt } project { id name description createdAt } } }`,
        variables: { id: seed.applicationId },
      },
      peer: {
        query: `query Application($id: String!) { application: applicationByRowId(rowId: $id) {
          id: rowId name appName applicationStatus port createdAt
          deployments: deploymentsByApplicationId(first: 10, orderBy: [CREATED_AT_DESC, PRIMARY_KEY_DESC]) {
            nodes { id: rowId status title createdAt } }
          domains: domainsByApplicationId(orderBy: PRIMARY_KEY_ASC) { nodes { id: rowId host port https } }
          environment: environmentByEnvironmentId { id: rowId name createdAt }
          project: projectByProjectId { id: rowId name description createdAt } } }`,
        variables: { id: seed.applicationId },
      },
    },
    {
      id: 6,
      label: "siteImports(first: 50) with steps",
      skiff: {
        query: `query Imports { siteImports(first: 50) { totalCount edges { node { id ${IMPORT_FIELDS}
          steps { step status } project { id name } application { id name appName } } } } }`,
        variables: {},
      },
      peer: {
        query: `query Imports { siteImports: allSiteImports(first: 50, orderBy: PRIMARY_KEY_DESC) { totalCount nodes {
          id: rowId ${IMPORT_FIELDS} steps project: projectByProjectId { id: rowId name }
          application: applicationByApplicationId { id: rowId name appName } } } }`,
        variables: {},
      },
      fromPeer: peerSteps,
    },
    {
      id: 7,
      label: "webhooks + webhookDeliveries(limit: 50)",
      skiff: {
        query: `query Webhooks($org: ID!, $uuid: ID!) { webhooks(organizationId: $org) { ${SKIFF_ENDPOINT} }
          webhookDeliveries(organizationId: $org, webhookUuid: $uuid, limit: 50) { ${ATTEMPT_FIELDS} } }`,
        variables: { ...org, uuid: seed.webhookUuids[0] },
      },
      peer: {
        query: `query Webhooks($uuid: String!) {
          webhooks: allWebhookEndpoints(orderBy: PRIMARY_KEY_ASC) { nodes { ${PEER_ENDPOINT} } }
          webhookDeliveries: allWebhookDeliveryAttempts(condition: { endpointId: $uuid }, first: 50,
            orderBy: PRIMARY_KEY_DESC) { nodes { ${ATTEMPT_FIELDS} } } }`,
        variables: { uuid: seed.webhookUuids[0] },
      },
    },
    {
      // A computed field in the tree (a URL holding the decrypted deploy token, for owners): answered by the same
      // one statement, its resolver run on the rows it carries (src/reads/resolved-sites.ts). PostGraphile has
      // no such field: it reads the tree without it, so this shape compares more work against less.
      id: 8,
      label: "projects(first: 100) + deployWebhookUrl (computed; the peer without it)",
      optional: true,
      skiff: {
        query: `query Tree { projects(first: 100) { edges { node {
          ${SKIFF_TREE.replace("appName", "appName deployWebhookUrl")} } } } }`,
        variables: {},
      },
      peer: treePeer(),
      fromSkiff: (data) => withoutKey(data, "deployWebhookUrl"),
    },
  ];
}

/** `value` without the key `key` at any depth. */
function withoutKey(value: Json, key: string): Json {
  if (Array.isArray(value)) return value.map((v) => withoutKey(v, key));
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(Object.entries(value).flatMap(([k, v]) => (k === key ? [] : [[k, withoutKey(v, key)]])));
}

/** An ISO 8601 date-time as either server writes it (`T` or space between date and time). */
const DATE_TIME = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}/;

/**
 * `value` made comparable: `{ edges: [{ node }] }` as `{ nodes }`, an object holding only `nodes` as that array,
 * date-times as epoch milliseconds, keys sorted.
 */
function normalise(value: Json): Json {
  if (Array.isArray(value)) return value.map(normalise);
  if (typeof value === "string") return DATE_TIME.test(value) ? Date.parse(value) : value;
  if (value === null || typeof value !== "object") return value;
  const entries = Object.entries(value).map(([key, v]): [string, Json] =>
    key === "edges" && Array.isArray(v) ? ["nodes", v.map((edge) => (edge as { node: Json }).node)] : [key, v],
  );
  if (entries.length === 1 && entries[0]![0] === "nodes") return normalise(entries[0]![1]);
  return Object.fromEntries(entries.sort(([a], [b]) => (a < b ? -1 : 1)).map(([k, v]) => [k, normalise(v)]));
}

/** The comparable form of a server's answer `json` (`{ data }`) for `shape` and `side` (see {@link normalise}). */
export function comparable(shape: Shape, side: "skiff" | "peer", json: unknown): unknown {
  const data = (json as { data: Json }).data;
  const reshape = side === "skiff" ? shape.fromSkiff : shape.fromPeer;
  return normalise(reshape ? reshape(data) : data);
}

/**
 * Where two JSON values first differ, as a path with both values (e.g. `data.projects.edges[3].node.name: "a" ≠
 * "b"`), key order included; null when they are the same.
 */
export function firstDifference(a: unknown, b: unknown, path = "data"): string | null {
  const show = (v: unknown) => JSON.stringify(v)?.slice(0, 200);
  if (Array.isArray(a) && Array.isArray(b)) {
    for (let i = 0; i < Math.max(a.length, b.length); i++) {
      const d = firstDifference(a[i], b[i], `${path}[${i}]`);
      if (d) return d;
    }
    return null;
  }
  if (a && b && typeof a === "object" && typeof b === "object" && !Array.isArray(a) && !Array.isArray(b)) {
    const ka = Object.keys(a);
    const kb = Object.keys(b);
    if (ka.join() !== kb.join()) return `${path}: keys ${show(ka)} ≠ ${show(kb)}`;
    for (const k of ka) {
      const d = firstDifference((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], `${path}.${k}`);
      if (d) return d;
    }
    return null;
  }
  return a === b ? null : `${path}: ${show(a)} ≠ ${show(b)}`;
}
