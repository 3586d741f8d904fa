/**
 * Who is calling is decided in one place: only the credential strategies (`src/auth/credentials/`) turn a
 * credential into a caller — better-auth's session lookup and JWT verification included — and only the transport's
 * `src/server/authenticate.ts` (an ordinary resolution) and `src/server/remembered-callers.ts` (a remembered caller,
 * confirmed by the read) enter them. The transport enters authentication at the points listed below, each once per
 * request (a WebSocket: once per connection); a new entry must be added here on purpose.
 *
 * What a caller may do is decided by one policy (src/auth/access/policy.ts: `can` / `assertCan` / `refusal`, the
 * SQL form of the visibility rules) and one lookup of the organization a service acts on
 * (src/modules/access/organization-access.ts: `organizationAccess`). No module defines a gate of its own: no
 * exported `can*` / `require*` / `assert*` function outside src/auth/access/ except the checks listed below, which
 * judge data rather than a caller; and the organization gate's `refusal` is asked only by the lookup and by the
 * compiled reads that decide it per organization inside their SQL (`*.reads.ts`); outside src/auth/ no code compares
 * the caller's role itself (`access.role`). Reads the source text.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const root = resolve(import.meta.dirname, "../..");

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(path);
    return e.name.endsWith(".ts") ? [path] : [];
  });
}

/** Code without comments (a docstring naming a function is no call). */
function code(file: string): string {
  return readFileSync(file, "utf8")
    .replace(/\/\*[\s\S]*?\*\//g, "")
    .replace(/(^|[^:])\/\/.*$/gm, "$1");
}

const files = sourceFiles(join(root, "src")).map((file) => ({ path: relative(root, file), code: code(file) }));
const inCredentials = (path: string) => path.startsWith("src/auth/credentials/");
const inPolicy = (path: string) => path.startsWith("src/auth/access/");
const LOOKUP = "src/modules/access/organization-access.ts";

/** Exported `can*` / `require*` / `assert*` functions that check data, not who is calling, with the reason. */
const NOT_GATES: Record<string, string> = {
  // An invitation link's own validity (unknown, expired, used): the same answer for every caller.
  assertUsableLink: "src/modules/team/invitation.service.ts",
  // The organization's plan quota (projects, applications, …): counts of rows, whoever asks.
  assertQuota: "src/modules/organizations/quota.ts",
};

/** Where the transport enters authentication, and how many call sites each file has (see the file's docstring). */
const ENTRY_POINTS: Record<string, number> = {
  // GraphQL over HTTP: the context of the request (after a remembered caller was not found).
  "src/server/app.ts": 1,
  // A REST row (site import API, agent API, the rest of the table): the row's context.
  "src/server/rest-runner.ts": 1,
  // A WebSocket connection: `connection_init`, once for the connection's life.
  "src/server/subscriptions.ts": 1,
  // A remembered caller whose read did not confirm it: authenticated anew, once.
  "src/server/remembered-callers.ts": 1,
  // /mcp: the request (a lone tool call counted), a batch's tool calls one by one (each is one request of the agent
  // API), and the uncounted look-up telling a revoked token (401) from a rate-limited one (a tool error).
  "src/server/mcp.ts": 2,
  // /api/auth/*: the request's caller, before the handler, shared by the audit entry and the session-end hook.
  "src/server/auth-callers.ts": 1,
  // /api/auth/*: the session a successful sign-in just created (the request presented none), for its audit entry.
  "src/server/auth-audit.ts": 1,
};

describe("who is calling", () => {
  it("only the credential strategies ask better-auth for a session or verify a user JWT", () => {
    const outside = files
      .filter((f) => !inCredentials(f.path) && /\bapi\.(getSession|verifyJWT)\(/.test(f.code))
      .map((f) => f.path);
    expect(outside).toEqual([]);
  });

  it("only the transport's authenticate.ts and remembered-callers.ts enter the credential strategies", () => {
    const importers = files
      .filter((f) => !inCredentials(f.path) && /from\s+["'][./]*(?:auth\/)?credentials\/index\.ts["']/.test(f.code))
      .map((f) => f.path)
      .sort();
    expect(importers).toEqual(["src/server/authenticate.ts", "src/server/remembered-callers.ts"]);
  });

  it("the transport authenticates at the listed entry points only", () => {
    const calls = Object.fromEntries(
      files
        .filter((f) => f.path !== "src/server/authenticate.ts")
        .map((f) => [f.path, (f.code.match(/\bauthenticate(?:Agent)?\(/g) ?? []).length] as const)
        .filter(([, n]) => n > 0),
    );
    expect(calls).toEqual(ENTRY_POINTS);
  });
});

describe("access gates", () => {
  it("no module exports a gate function of its own", () => {
    const found = files.flatMap((f) =>
      inPolicy(f.path)
        ? []
        : [...f.code.matchAll(/export\s+(?:async\s+)?(?:function\s+|const\s+)((?:can|require|assert)[A-Z]\w*)/g)].map(
            (m) => `${m[1]} (${f.path})`,
          ),
    );
    const allowed = Object.entries(NOT_GATES).map(([name, path]) => `${name} (${path})`);
    expect(found.sort()).toEqual(allowed.sort());
  });

  it("the organization gate is asked through the one lookup, or inside a compiled read's SQL", () => {
    const askers = files
      .filter((f) => !inPolicy(f.path) && /(?<![\w.])refusal\(/.test(f.code))
      .map((f) => f.path)
      .filter((path) => path !== LOOKUP && !path.endsWith(".reads.ts"));
    expect(askers).toEqual([]);
  });

  it("outside src/auth/, no code compares the caller's role itself", () => {
    const comparers = files
      .filter((f) => !f.path.startsWith("src/auth/") && /\baccess\??\.role\b/.test(f.code))
      .map((f) => f.path);
    expect(comparers).toEqual([]);
  });
});
