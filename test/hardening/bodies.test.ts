/**
 * Request bodies on every REST row and every better-auth endpoint, table-driven over the real
 * route tables (`restRoutes`, `auth.api`): each is called with no body, an empty body sent with
 * `Content-Type: application/json` (what many SDKs do on every call), `{}`, `null`, and — for GET rows — a JSON
 * body on GET. A row that takes no body answers the empty-JSON, `{}` and GET-with-body variants exactly as it
 * answers no body; a row that takes one answers a 400 in its documented error shape for no body and an empty one;
 * `null` (a body that is not an object) is refused before every row alike, 400 BAD_REQUEST; nothing answers 5xx or
 * Fastify's "Body cannot be empty". The webhook rows of the report also succeed on real endpoints with the JSON
 * content type and no body.
 */
import { describe, expect, it } from "vitest";
import { restRoutes } from "../../src/modules/index.ts";
import type { AnyRestRoute } from "../../src/shared/rest-route.ts";
import { createAgentTokenFor, createOrg } from "../helpers/seed.ts";
import { useTestServer } from "../helpers/server.ts";
import { insertWebhook, orgNumber, rest } from "../webhooks/webhook-helpers.ts";

const t = useTestServer({ SKIFF_OUTBOUND_ALLOW: "127.0.0.1" });

/** The variants sent to every row. */
const VARIANTS = {
  none: {},
  emptyJson: { headers: { "content-type": "application/json" }, body: "" },
  emptyObject: { headers: { "content-type": "application/json" }, body: "{}" },
  null: { headers: { "content-type": "application/json" }, body: "null" },
} as const satisfies Record<string, { headers?: Record<string, string>; body?: string }>;
type Variant = keyof typeof VARIANTS | "getWithBody";

/** Whether a row reads a request body (its contract says so, or it is a procedure row that takes JSON input). */
function takesBody(route: AnyRestRoute): boolean {
  if ("handle" in route) return false; // callback rows read the raw bytes themselves, whatever they are
  if (route.doc) return route.doc.body !== undefined;
  // Undocumented procedure rows (`/api/siteImport.<name>`): POST carries the JSON input.
  return route.method === "POST";
}

/** An HTTP answer. */
interface Answer {
  status: number;
  body: string;
}

async function call(url: string, method: string, variant: Variant, auth: Record<string, string>): Promise<Answer> {
  // fetch refuses a body on GET: send it with node:http instead.
  if (variant === "getWithBody")
    return rawRequest(url, method, { "content-type": "application/json", ...auth }, '{"unexpected":true}');
  const sent: { headers?: Record<string, string>; body?: string } = VARIANTS[variant];
  const res = await fetch(url, { method, headers: { ...sent.headers, ...auth }, body: sent.body, redirect: "manual" });
  return { status: res.status, body: await res.text() };
}

async function rawRequest(url: string, method: string, headers: Record<string, string>, body: string) {
  const http = await import("node:http");
  return new Promise<Answer>((resolve, reject) => {
    const req = http.request(
      url,
      { method, headers: { ...headers, "content-length": Buffer.byteLength(body) } },
      (res) => {
        let text = "";
        res.setEncoding("utf8").on("data", (c: string) => {
          text += c;
        });
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body: text }));
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

/** Top-level keys of a JSON answer (its shape), or the raw text when it is not JSON. */
function shape(text: string): string {
  try {
    const value = JSON.parse(text) as unknown;
    return value && typeof value === "object" && !Array.isArray(value)
      ? Object.keys(value).sort().join(",")
      : typeof value;
  } catch {
    return "text";
  }
}

const FASTIFY_EMPTY = /Body cannot be empty|FST_ERR_CTP_EMPTY_JSON_BODY/;

describe("bodies on every REST row and auth endpoint", () => {
  it("bodiless rows ignore an empty or JSON body; body rows answer their documented 400; never 5xx", async () => {
    const org = await createOrg(t.db.knex);
    const number = await orgNumber(t.db.knex, org.organizationId);
    const params: Record<string, string> = { org_id: String(number) };
    const auth = { authorization: `Bearer ${org.owner.apiKey}` };
    const agentAuth = {
      authorization: `Bearer ${await createAgentTokenFor(t.db.knex, org.organizationId, org.owner)}`,
    };
    const table: string[] = [];
    const failures: string[] = [];
    for (const route of restRoutes) {
      const path = route.path.replace(/:(\w+)/g, (_m, name: string) => params[name] ?? `unknown-${name}`);
      const url = `${t.skiff.url}${path}`;
      const variants: Variant[] = [
        ...(Object.keys(VARIANTS) as Variant[]),
        ...(route.method === "GET" ? (["getWithBody"] as const) : []),
      ];
      const answers = new Map<Variant, Answer>();
      // Bodiless GET variants only matter on GET; on GET the JSON variants are bodies on GET too.
      for (const variant of route.method === "GET" ? (["none", "getWithBody"] as Variant[]) : variants) {
        answers.set(
          variant,
          await call(url, route.method, variant, "surface" in route && route.surface === "agent" ? agentAuth : auth),
        );
      }
      const none = answers.get("none")!;
      const row = `${route.method} ${route.path}`;
      const cells: string[] = [];
      for (const [variant, answer] of answers) {
        cells.push(`${variant} ${answer.status}`);
        if (answer.status >= 500) failures.push(`${row} ${variant}: ${answer.status} ${answer.body.slice(0, 200)}`);
        if (FASTIFY_EMPTY.test(answer.body)) failures.push(`${row} ${variant}: ${answer.body.slice(0, 200)}`);
        if (variant === "none") continue;
        // A body that is not an object is refused before the row (callback rows read their bytes themselves).
        if (variant === "null" && !("handle" in route)) {
          const refused = JSON.parse(answer.body) as { code?: string; error?: string };
          if (answer.status !== 400 || refused.code !== "BAD_REQUEST" || !/JSON object/.test(refused.error ?? ""))
            failures.push(`${row} null: ${answer.status} ${answer.body.slice(0, 120)}`);
          continue;
        }
        // No body and an empty one are the same request for every row; a bodiless row also ignores `{}` and a body
        // on GET. (A body row's answer to no body is its documented 400, or 200 when its input is optional.)
        const same = variant === "emptyJson" || variant === "null" || !takesBody(route) || variant === "getWithBody";
        if (same && (answer.status !== none.status || shape(answer.body) !== shape(none.body)))
          failures.push(`${row} ${variant}: ${answer.status} ${answer.body.slice(0, 120)} ≠ no body ${none.status}`);
      }
      // A row checking a credential of its own (`authenticate`: the docs host's license key) refuses the test's API
      // key with its 401 before it reads a body.
      const answers401 = "authenticate" in route && route.authenticate !== undefined && none.status === 401;
      if (takesBody(route) && ![200, 400, 404].includes(none.status) && !answers401)
        failures.push(`${row} none: ${none.status} ${none.body.slice(0, 120)}`);
      table.push(`${row} [${takesBody(route) ? "body" : "no body"}]: ${cells.join(", ")}`);
    }

    // better-auth's endpoints (its own route table), mounted at /api/auth.
    const endpoints = Object.values(
      t.skiff.services.auth.api as Record<string, { path?: string; options?: { method?: string | string[] } }>,
    )
      .filter((e) => typeof e?.path === "string" && e.options?.method)
      .flatMap((e) => {
        const methods = Array.isArray(e.options!.method) ? e.options!.method : [e.options!.method!];
        return methods.filter((m) => m === "GET" || m === "POST").map((m) => ({ method: m, path: e.path! }));
      });
    let authCalls = 0;
    for (const { method, path } of endpoints) {
      const url = `${t.skiff.url}/api/auth${path.replace(/:(\w+)/g, "unknown")}`;
      for (const variant of (method === "GET" ? ["none", "getWithBody"] : Object.keys(VARIANTS)) as Variant[]) {
        const answer = await call(url, method, variant, auth);
        authCalls++;
        if (answer.status >= 500 || FASTIFY_EMPTY.test(answer.body))
          failures.push(`auth ${method} ${path} ${variant}: ${answer.status} ${answer.body.slice(0, 200)}`);
      }
    }
    console.info(
      `REST rows × variants:\n${table.join("\n")}\nauth endpoints: ${endpoints.length}, calls: ${authCalls}`,
    );
    expect(failures).toEqual([]);
    expect(table.length).toBe(restRoutes.length);
  }, 120_000);

  it("webhook test, regenerate-secret and DELETE succeed with Content-Type: application/json and no body", async () => {
    const org = await createOrg(t.db.knex);
    const number = await orgNumber(t.db.knex, org.organizationId);
    const hook = await insertWebhook(
      t.db.knex,
      org.organizationId,
      "https://127.0.0.1:9/unreachable",
      ["course_completed"],
      false,
    );
    const base = `${t.skiff.url}/api/v1/orgs/${number}/webhooks/${hook.id}`;
    const send = (method: string, path = "") =>
      fetch(`${base}${path}`, {
        method,
        headers: { "content-type": "application/json", authorization: `Bearer ${org.owner.apiKey}` },
      });
    const tested = await send("POST", "/test");
    expect(tested.status).toBe(200);
    expect(await tested.json()).toMatchObject({ event: "ping", attempt: 1, success: false });
    const regenerated = await send("POST", "/regenerate-secret");
    expect(regenerated.status).toBe(200);
    expect(((await regenerated.json()) as { secret: string }).secret).toMatch(/^whsec_/);
    const deleted = await send("DELETE");
    expect(deleted.status).toBe(204);
    expect(
      (await rest(t.skiff.url, "GET", `/api/v1/orgs/${number}/webhooks/${hook.id}`, org.owner.apiKey)).status,
    ).toBe(404);
  });
});
