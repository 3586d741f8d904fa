/**
 * The GraphQL-over-HTTP conformance audit of `graphql-http` (`serverAudits`), run against the real server over
 * loopback: every MUST passes. The SHOULDs left failing are listed in docs/graphql.md (section "GraphQL over HTTP
 * conformance") with the reason; this test pins that list, so a change either way is noticed.
 */
import { serverAudits } from "graphql-http";
import { describe, expect, it } from "vitest";
import { useTestServer } from "../helpers/server.ts";

const t = useTestServer();

/** SHOULD/MAY audits failing by design; keep in step with docs/graphql.md. */
const ACCEPTED_FAILURES = new Set<string>([
  // MAY, GET without a preflight header: refused by CSRF prevention (deliberate; send `apollo-require-preflight`).
  "5A70",
  "6A70",
  "D6D5",
  // SHOULD answer 200 to `Accept: application/json` on parse, validation and variable coercion failures:
  // Skiff answers 400 (GRAPHQL_PARSE_FAILED, GRAPHQL_VALIDATION_FAILED, BAD_USER_INPUT) like stock Apollo, so
  // that clients and proxies see a refused request as a client error whatever media type they accept.
  "572B",
  "FDE2",
  "7B9B",
]);

describe("graphql-http audit", () => {
  it("passes every MUST audit; the failing SHOULDs are the documented ones", async () => {
    const results = [];
    for (const audit of serverAudits({ url: `${t.skiff.url}/graphql`, fetchFn: fetch })) {
      results.push(await audit.fn());
    }
    const failing = results.filter((r) => r.status !== "ok");
    const report = failing.map((r) => `${r.id} ${r.name}: ${"reason" in r ? r.reason : ""}`);
    console.log(`graphql-http audit: ${results.length - failing.length}/${results.length} ok\n${report.join("\n")}`);
    expect(results.length).toBeGreaterThan(40);
    expect(failing.filter((r) => r.name.startsWith("MUST")).map((r) => r.name)).toEqual([]);
    expect(failing.map((r) => r.id).sort()).toEqual([...ACCEPTED_FAILURES].sort());
  });
});
