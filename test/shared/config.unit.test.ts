/**
 * loadConfig (src/config.ts) refuses every wrong value at start-up, naming the variable, instead of passing it on
 * to fail later (a TypeError in a transform, better-auth, nodemailer, a DNS lookup of "notaurl") or turning it into
 * something else (an empty number into 0, `0x10f3` into a port). docs/configuration.md's header states the rules.
 */
import { describe, expect, it } from "vitest";
import { ConfigError, configSchema, loadConfig } from "../../src/config.ts";

/** The message loadConfig throws for `env`, or "" when it accepts it. */
function refusal(env: Record<string, string>): string {
  try {
    loadConfig(env);
    return "";
  } catch (error) {
    return (error as Error).message;
  }
}

/** Asserts that `env` is refused with a line naming `variable` (and, when given, matching `pattern`). */
function expectRefused(env: Record<string, string>, variable: string, pattern?: RegExp): void {
  const message = refusal(env);
  expect(message, JSON.stringify(env)).toMatch(/^Invalid configuration:\n/);
  const line = message.split("\n").find((l) => l.trimStart().startsWith(`${variable}:`));
  expect(line, `${JSON.stringify(env)} → ${message}`).toBeDefined();
  if (pattern) expect(line).toMatch(pattern);
}

describe("loadConfig: web addresses", () => {
  it("refuses SKIFF_TRUSTED_ORIGINS entries that are not http(s) URLs, as a configuration error (no TypeError)", () => {
    expectRefused({ SKIFF_TRUSTED_ORIGINS: "notaurl" }, "SKIFF_TRUSTED_ORIGINS", /notaurl/);
    expectRefused({ SKIFF_TRUSTED_ORIGINS: "https://ok.example, ftp://files.example" }, "SKIFF_TRUSTED_ORIGINS");
    expectRefused({ SKIFF_TRUSTED_ORIGINS: "javascript:alert(1)" }, "SKIFF_TRUSTED_ORIGINS");
    expect(
      loadConfig({ SKIFF_TRUSTED_ORIGINS: " https://a.example/path , http://127.0.0.1:5173" }).SKIFF_TRUSTED_ORIGINS,
    ).toEqual(["https://a.example", "http://127.0.0.1:5173"]);
  });

  it("accepts only http(s) URLs where the variable is a web address", () => {
    for (const name of [
      "SKIFF_BASE_URL",
      "SKIFF_GATEWAY_URL",
      "SKIFF_DOCS_HOST_URL",
      "OTEL_EXPORTER_OTLP_ENDPOINT",
      "GOOGLE_ISSUER",
      "GITLAB_ISSUER",
    ]) {
      // SKIFF_DOCS_HOST_URL needs the license key beside it (see below).
      const extra: Record<string, string> = name === "SKIFF_DOCS_HOST_URL" ? { SKIFF_LICENSE_KEY: "k".repeat(16) } : {};
      for (const bad of ["ftp://x", "javascript:alert(1)", "notaurl", "http:x.example", "file:///etc/passwd"]) {
        expectRefused({ ...extra, [name]: bad }, name);
      }
      for (const good of ["http://127.0.0.1:4000", "https://skiff.example.com/base/"]) {
        expect(refusal({ ...extra, [name]: good }), `${name}=${good}`).toBe("");
      }
    }
  });

  it("accepts only smtp:// and smtps:// URLs as SMTP_URL", () => {
    for (const bad of ["notaurl", "http://x", "https://smtp.example.com", "smtp:x"]) {
      expectRefused({ SMTP_URL: bad }, "SMTP_URL", /smtp/);
    }
    expect(loadConfig({ SMTP_URL: "smtps://user:pass@smtp.example.com:465" }).SMTP_URL).toBe(
      "smtps://user:pass@smtp.example.com:465",
    );
    expect(loadConfig({ SMTP_URL: "smtp://127.0.0.1:2525" }).SMTP_URL).toBe("smtp://127.0.0.1:2525");
  });

  it("accepts only postgres:// and postgresql:// URLs as DATABASE_URL and DATABASE_SESSION_URL", () => {
    for (const name of ["DATABASE_URL", "DATABASE_SESSION_URL"]) {
      for (const bad of ["notaurl", "mysql://root@127.0.0.1:3306/skiff", "http://db:5432/skiff"]) {
        expectRefused({ [name]: bad }, name, /postgres/);
      }
      for (const good of ["postgres://u:p@db:5432/skiff", "postgresql://u@%2Fvar%2Frun%2Fpostgresql/skiff"]) {
        expect(refusal({ [name]: good }), `${name}=${good}`).toBe("");
      }
    }
  });
});

describe("loadConfig: numbers", () => {
  const numeric = [
    "PORT",
    "SKIFF_METRICS_PORT",
    "SKIFF_SHUTDOWN_TIMEOUT",
    "SKIFF_IMPORT_WAIT_MS",
    "SKIFF_HEALTH_INTERVAL",
    "SKIFF_DB_POOL_MAX",
    "SKIFF_EXECUTION_TIMEOUT_MS",
    "SKIFF_WORKER_POOL_MAX",
    "SKIFF_WEBHOOK_ENDPOINT_CONCURRENCY",
  ];

  it("treats an empty variable as unset (its default), never as 0", () => {
    const defaults = loadConfig({});
    const emptied = loadConfig(Object.fromEntries(numeric.map((name) => [name, ""])));
    for (const name of numeric) {
      expect(emptied[name as keyof typeof emptied], name).toEqual(defaults[name as keyof typeof defaults]);
    }
    expect(emptied.PORT).toBe(4000);
    expect(emptied.SKIFF_METRICS_PORT).toBe(9464);
    expect(emptied.SKIFF_SHUTDOWN_TIMEOUT).toBe(10);
    expect(emptied.SKIFF_IMPORT_WAIT_MS).toBe(60_000);
    expect(emptied.SKIFF_HEALTH_INTERVAL).toBe(30);
    expect(emptied.SKIFF_WORKER_POOL_MAX).toBeUndefined();
  });

  it("treats an empty value as unset for every other variable too", () => {
    const defaults = loadConfig({});
    const names = Object.keys(configSchema.shape).filter((name) => name !== "SKIFF_LEGACY_NAMESPACE");
    // Every variable at once (its defaults), with none refused: LOG_LEVEL, SKIFF_BOOTSTRAP_EMAIL, the CIDR list…
    expect(loadConfig(Object.fromEntries(names.map((name) => [name, ""])))).toEqual(defaults);
    expect(loadConfig({ SKIFF_TENANT_BLOCKED_CIDRS: "" }).SKIFF_TENANT_BLOCKED_CIDRS).toContain("10.0.0.0/8");
    expect(loadConfig({ LOG_LEVEL: "" }).LOG_LEVEL).toBe("info");
    expect(loadConfig({ DATABASE_URL: "" }).DATABASE_URL).toBeUndefined();
    // The one documented exception: an empty SKIFF_LEGACY_NAMESPACE names no legacy namespace (deploy/base sets it).
    expect(loadConfig({ SKIFF_LEGACY_NAMESPACE: "" }).SKIFF_LEGACY_NAMESPACE).toBe("");
    expect(loadConfig({}).SKIFF_LEGACY_NAMESPACE).toBe("skiff-apps");
  });

  it("reads integers in decimal only: hexadecimal, exponents and fractions are refused", () => {
    for (const bad of ["0x10f3", "1e3", "abc", "Infinity", "4000abc", "40 00", "0b11", "1.5"]) {
      expectRefused({ PORT: bad }, "PORT");
    }
    for (const bad of ["0x10f3", "1e3", " "]) expectRefused({ SKIFF_METRICS_PORT: bad }, "SKIFF_METRICS_PORT");
    expectRefused({ SKIFF_IMPORT_WAIT_MS: "6e4" }, "SKIFF_IMPORT_WAIT_MS");
    expectRefused({ SKIFF_DB_POOL_MAX: "0x10" }, "SKIFF_DB_POOL_MAX");
    expectRefused({ SKIFF_SHUTDOWN_TIMEOUT: "1e1" }, "SKIFF_SHUTDOWN_TIMEOUT");
    expect(loadConfig({ PORT: "4321" }).PORT).toBe(4321);
    expect(loadConfig({ PORT: " 80 " }).PORT).toBe(80);
    expect(loadConfig({ SKIFF_METRICS_PORT: "0" }).SKIFF_METRICS_PORT).toBe(0);
    // Seconds may have a fraction where the variable is a number, not an integer.
    expect(loadConfig({ SKIFF_SHUTDOWN_TIMEOUT: "0.5" }).SKIFF_SHUTDOWN_TIMEOUT).toBe(0.5);
  });

  it("caps SKIFF_SHUTDOWN_TIMEOUT and SKIFF_EXECUTION_TIMEOUT_MS below what a timer can hold", () => {
    // setTimeout holds at most 2^31-1 ms (~24.8 days); beyond it Node fires after 1 ms.
    expectRefused({ SKIFF_SHUTDOWN_TIMEOUT: "2147484" }, "SKIFF_SHUTDOWN_TIMEOUT");
    expectRefused({ SKIFF_SHUTDOWN_TIMEOUT: "3601" }, "SKIFF_SHUTDOWN_TIMEOUT");
    expect(loadConfig({ SKIFF_SHUTDOWN_TIMEOUT: "3600" }).SKIFF_SHUTDOWN_TIMEOUT).toBe(3600);
    expectRefused({ SKIFF_EXECUTION_TIMEOUT_MS: "2147483648" }, "SKIFF_EXECUTION_TIMEOUT_MS");
    expectRefused({ SKIFF_EXECUTION_TIMEOUT_MS: "600001" }, "SKIFF_EXECUTION_TIMEOUT_MS");
    expect(loadConfig({ SKIFF_EXECUTION_TIMEOUT_MS: "600000" }).SKIFF_EXECUTION_TIMEOUT_MS).toBe(600_000);
  });

  it("keeps every seconds and milliseconds variable's largest value within a timer's 2^31-1 ms", () => {
    const timerMax = 2 ** 31 - 1;
    const ms = ["SKIFF_IMPORT_WAIT_MS", "SKIFF_WORKER_SHUTDOWN_TIMEOUT_MS", "SKIFF_EXECUTION_TIMEOUT_MS"];
    const seconds = [
      "SKIFF_SHUTDOWN_TIMEOUT",
      "SKIFF_ROLLOUT_TIMEOUT",
      "SKIFF_BUILD_TIMEOUT",
      "SKIFF_HEALTH_INTERVAL",
      "SKIFF_RECONCILE_INTERVAL",
      "SKIFF_LICENSE_SYNC_INTERVAL",
    ];
    for (const [names, factor] of [
      [ms, 1],
      [seconds, 1000],
    ] as const) {
      for (const name of names) {
        const over = String(Math.floor(timerMax / factor) + 1);
        expectRefused({ [name]: over }, name);
      }
    }
  });
});

describe("loadConfig: lists of addresses", () => {
  it("refuses SKIFF_TENANT_BLOCKED_CIDRS entries that are not real IPv4 CIDRs", () => {
    for (const bad of ["10.0.0.0/99", "999.1.1.1/8", "10.0.0.0/33", "010.0.0.0/8", "10.0.0/8", "fd00::/8"]) {
      expectRefused({ SKIFF_TENANT_BLOCKED_CIDRS: `172.16.0.0/12,${bad}` }, "SKIFF_TENANT_BLOCKED_CIDRS");
    }
    expect(
      loadConfig({ SKIFF_TENANT_BLOCKED_CIDRS: "10.0.0.0/8, 169.254.169.254/32,0.0.0.0/0" }).SKIFF_TENANT_BLOCKED_CIDRS,
    ).toEqual(["10.0.0.0/8", "169.254.169.254/32", "0.0.0.0/0"]);
  });

  it("refuses SKIFF_DOCS_DNS_SERVERS entries that are not IP addresses (with an optional port)", () => {
    for (const bad of ["dns.google", "999.1.1.1", "1.1.1", "1.1.1.1:abc", "1.1.1.1:99999", "1.1.1.1:0", "[::1"]) {
      expectRefused({ SKIFF_DOCS_DNS_SERVERS: `8.8.8.8,${bad}` }, "SKIFF_DOCS_DNS_SERVERS");
    }
    const servers = "1.1.1.1, 8.8.8.8:53,2001:4860:4860::8888,[::1]:5353,[fd00::53]";
    expect(loadConfig({ SKIFF_DOCS_DNS_SERVERS: servers }).SKIFF_DOCS_DNS_SERVERS).toBe(servers);
  });
});

describe("loadConfig: variables that go together", () => {
  it("refuses a sign-in provider with only one of its client id and secret, naming the missing one", () => {
    for (const provider of ["GITHUB", "GOOGLE", "GITLAB"]) {
      expectRefused(
        { [`${provider}_CLIENT_ID`]: "id" },
        `${provider}_CLIENT_SECRET`,
        new RegExp(`${provider}_CLIENT_ID`),
      );
      expectRefused(
        { [`${provider}_CLIENT_SECRET`]: "s" },
        `${provider}_CLIENT_ID`,
        new RegExp(`${provider}_CLIENT_SECRET`),
      );
      expect(refusal({ [`${provider}_CLIENT_ID`]: "id", [`${provider}_CLIENT_SECRET`]: "s" })).toBe("");
    }
  });

  it("refuses SKIFF_DOCS_HOST_URL without SKIFF_LICENSE_KEY (docs: required with it)", () => {
    expectRefused({ SKIFF_DOCS_HOST_URL: "https://docs-host.example" }, "SKIFF_LICENSE_KEY", /SKIFF_DOCS_HOST_URL/);
    expect(refusal({ SKIFF_DOCS_HOST_URL: "https://docs-host.example", SKIFF_LICENSE_KEY: "k".repeat(16) })).toBe("");
    // A license key alone is fine: this instance is its own docs host then.
    expect(refusal({ SKIFF_LICENSE_KEY: "k".repeat(16) })).toBe("");
  });
});

describe("loadConfig: booleans", () => {
  it("takes true, false, 1 and 0 for every boolean (SKIFF_BOOTSTRAP included)", () => {
    for (const name of [
      "SKIFF_BOOTSTRAP",
      "SKIFF_PUBLIC_API_ONLY",
      "SKIFF_INTROSPECTION",
      "SKIFF_WORKER",
      "SKIFF_MCP",
    ]) {
      for (const [text, value] of [
        ["true", true],
        ["1", true],
        ["false", false],
        ["0", false],
      ] as const) {
        expect(loadConfig({ [name]: text })[name as "SKIFF_BOOTSTRAP"], `${name}=${text}`).toBe(value);
      }
      expectRefused({ [name]: "yes" }, name);
    }
    expect(loadConfig({}).SKIFF_BOOTSTRAP).toBe(true);
  });
});

describe("loadConfig: the report", () => {
  it("throws a ConfigError (main.ts and scripts/migrate.ts print its message, without a stack)", () => {
    expect(ConfigError).toBeTypeOf("function");
    let thrown: unknown;
    try {
      loadConfig({ PORT: "abc" });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ConfigError);
    expect((thrown as Error).name).toBe("ConfigError");
  });

  it("names every wrong variable at once", () => {
    const message = refusal({
      PORT: "abc",
      SMTP_URL: "http://x",
      SKIFF_TENANT_BLOCKED_CIDRS: "10.0.0.0/99",
      GITHUB_CLIENT_ID: "id",
    });
    for (const name of ["PORT", "SMTP_URL", "SKIFF_TENANT_BLOCKED_CIDRS", "GITHUB_CLIENT_SECRET"]) {
      expect(message).toMatch(new RegExp(`^  ${name}: `, "m"));
    }
  });

  it("refuses a query depth the REST paths' own operations would exceed", () => {
    expectRefused({ SKIFF_MAX_QUERY_DEPTH: "4" }, "SKIFF_MAX_QUERY_DEPTH", /at least 5/);
    expect(loadConfig({ SKIFF_MAX_QUERY_DEPTH: "5" }).SKIFF_MAX_QUERY_DEPTH).toBe(5);
  });

  it("trusts the loopback names of a local instance's port for sign-in, and only those of its own port", async () => {
    const { trustedOriginsOf } = await import("../../src/auth/auth.ts");
    expect(trustedOriginsOf(loadConfig({ PORT: "4131" })).sort()).toEqual(
      ["http://127.0.0.1:4131", "http://[::1]:4131", "http://localhost:4131"].sort(),
    );
    expect(
      trustedOriginsOf(
        loadConfig({ SKIFF_BASE_URL: "https://skiff.example.com", SKIFF_TRUSTED_ORIGINS: "https://a.example" }),
      ),
    ).toEqual(["https://skiff.example.com", "https://a.example"]);
  });

  it("keeps the documented defaults", () => {
    expect(loadConfig({})).toMatchObject({
      HOST: "0.0.0.0",
      PORT: 4000,
      SKIFF_METRICS_PORT: 9464,
      SKIFF_SHUTDOWN_TIMEOUT: 10,
      SKIFF_EXECUTION_TIMEOUT_MS: 10_000,
      SKIFF_IMPORT_WAIT_MS: 60_000,
      SKIFF_BOOTSTRAP: true,
      SKIFF_PUBLIC_API_ONLY: false,
      SKIFF_TRUSTED_ORIGINS: [],
      SKIFF_DOCS_DNS_SERVERS: "",
      SKIFF_TENANT_BLOCKED_CIDRS: ["10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "100.64.0.0/10", "169.254.0.0/16"],
    });
  });
});
