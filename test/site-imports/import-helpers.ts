/**
 * Helpers of the site import tests: a small REST client, request builders, resource counts and failure
 * injection through real PostgreSQL triggers (never by stubbing services).
 */
import type { Knex } from "knex";
import { createOrg, createRegistry } from "../helpers/seed.ts";

/** Credentials of a request. */
export interface Auth {
  apiKey?: string;
  header?: "bearer" | "x-api-key";
  cookie?: string;
}

/** Status and parsed JSON body of a REST call. */
export interface RestResult<T = Record<string, unknown>> {
  status: number;
  body: T;
}

/** Calls `${url}${path}` with a JSON body (when given) and the credentials. */
export async function rest<T = Record<string, unknown>>(
  url: string,
  method: "GET" | "POST",
  path: string,
  auth: Auth = {},
  body?: unknown,
): Promise<RestResult<T>> {
  const headers: Record<string, string> = {};
  if (body !== undefined) headers["content-type"] = "application/json";
  if (auth.apiKey) {
    if (auth.header === "x-api-key") headers["x-api-key"] = auth.apiKey;
    else headers.authorization = `Bearer ${auth.apiKey}`;
  }
  if (auth.cookie) headers.cookie = auth.cookie;
  const res = await fetch(`${url}${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : null) as T };
}

/** An import request with a docker source and overrides (shallow merge). */
export function dockerRequest(organizationId: string, overrides: Record<string, unknown> = {}) {
  return {
    organizationId,
    name: `site-${Math.random().toString(36).slice(2, 10)}`,
    source: { type: "docker", dockerImage: "nginx:1.27" },
    ...overrides,
  };
}

/** An organization (unlimited plan unless given) with a container registry, ready to import. */
export async function importReadyOrg(knex: Knex, plan?: string) {
  const org = await createOrg(knex, plan);
  await createRegistry(knex, org.organizationId);
  return org;
}

/** {@link countResources} after one import with a database (4 generated variables + 2 of the request) and a domain. */
export const FULL_IMPORT_COUNTS = {
  projects: 1,
  environments: 1,
  databases: 1,
  applications: 1,
  variables: 6,
  domains: 1,
  deployments: 1,
  imports: 1,
};

/** Counts of every resource an import creates, in one organization. */
export async function countResources(knex: Knex, organizationId: string) {
  const [row] = await knex
    .raw(
      `select
      (select count(*)::int from projects where organization_id = :org) as projects,
      (select count(*)::int from environments e join projects p on p.id = e.project_id where p.organization_id = :org) as environments,
      (select count(*)::int from databases where organization_id = :org) as databases,
      (select count(*)::int from applications where organization_id = :org) as applications,
      (select count(*)::int from environment_variables v join applications a on a.id = v.application_id
        where a.organization_id = :org) as variables,
      (select count(*)::int from domains where organization_id = :org) as domains,
      (select count(*)::int from deployments d join applications a on a.id = d.application_id
        where a.organization_id = :org) as deployments,
      (select count(*)::int from site_imports where organization_id = :org) as imports`,
      { org: organizationId },
    )
    .then((r: { rows: unknown[] }) => r.rows);
  return row as Record<
    "projects" | "environments" | "databases" | "applications" | "variables" | "domains" | "deployments" | "imports",
    number
  >;
}

/**
 * Installs a BEFORE INSERT trigger on `table` that raises when `column` contains `marker`: the next insert of
 * a marked row fails inside PostgreSQL, exactly as a real failure would.
 */
export async function failInsertsWhen(knex: Knex, table: string, column: string, marker: string): Promise<void> {
  const fn = `test_fail_${table}`;
  await knex.raw(`
    create or replace function ${fn}() returns trigger language plpgsql as $$
    begin
      if NEW.${column} like '%${marker}%' then raise exception 'injected failure on ${table}'; end if;
      return NEW;
    end $$`);
  await knex.raw(`drop trigger if exists ${fn} on ${table}`);
  await knex.raw(`create trigger ${fn} before insert on ${table} for each row execute function ${fn}()`);
}

/**
 * Installs a BEFORE INSERT trigger on `table` that sleeps `seconds` when `column` contains `marker`: racing
 * imports then all pass the up-front checks before any of them commits, so the in-transaction guards
 * (unique constraints, quota locks) are what decides.
 */
export async function slowInsertsWhen(knex: Knex, table: string, column: string, marker: string, seconds: number) {
  const fn = `test_slow_${table}`;
  await knex.raw(`
    create or replace function ${fn}() returns trigger language plpgsql as $$
    begin
      if NEW.${column} like '%${marker}%' then perform pg_sleep(${seconds}); end if;
      return NEW;
    end $$`);
  await knex.raw(`drop trigger if exists ${fn} on ${table}`);
  await knex.raw(`create trigger ${fn} before insert on ${table} for each row execute function ${fn}()`);
}

/**
 * Holds an EXCLUSIVE lock on `table` in an open transaction until `release()` (reads go on, the import step inserting
 * there waits); `release` is also pushed to `locks`, for the test's cleanup to run whatever happened.
 */
export async function stallTable(
  knex: Knex,
  table: string,
  locks: Array<() => Promise<void>>,
): Promise<{ release(): Promise<void> }> {
  const trx = await knex.transaction();
  await trx.raw(`lock table ${table} in exclusive mode`);
  const release = () => (trx.isCompleted() ? Promise.resolve() : trx.rollback().then(() => undefined));
  locks.push(release);
  return { release };
}
