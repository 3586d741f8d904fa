/**
 * Docs theme administration and the theme endpoint (spec "Docs-domain lookup and theme"), on real
 * PostgreSQL over real HTTP: owners and admins save the theme, members and other organizations get NOT_FOUND,
 * every invalid field is a BAD_USER_INPUT `fieldErrors` entry (typography, radius, borders and neutral surfaces
 * refused with a message saying so), hostnames are unique platform-wide; `/o/<databaseId>/api/theme` serves the
 * JSON document and its CSS, with the 60 s cache policy, a strong ETag (304), CORS, 404 without a theme and a
 * detail-free 500 on an internal failure.
 */
import { describe, expect, it } from "vitest";
import { addMember, createOrg } from "../helpers/seed.ts";
import { gql, useTestServer } from "../helpers/server.ts";
import { orgNumber, SET_THEME, THEME } from "./docs-helpers.ts";

const t = useTestServer({ SKIFF_WORKER: "false", SKIFF_DOCS_CNAME_TARGET: "cname.docs-host.test" });

async function org() {
  const o = await createOrg(t.db.knex);
  return { ...o, number: await orgNumber(t.db.knex, o.organizationId) };
}

async function setTheme(apiKey: string, organizationId: string, input: Record<string, unknown>) {
  return gql(t.skiff.url, SET_THEME, { org: organizationId, input }, { apiKey });
}

describe("theme administration", () => {
  it("saves the whole theme for owners and admins and shows the registration state", async () => {
    const { owner, organizationId, number } = await org();
    const res = await setTheme(owner.apiKey, organizationId, { ...THEME, docsHostname: "docs.owner-admin.test" });
    expect(res.errors).toBeUndefined();
    const theme = (res.data as { setDocsTheme: Record<string, unknown> }).setDocsTheme;
    expect(theme).toMatchObject({
      siteName: "Acme Docs",
      colorsLight: THEME.colorsLight,
      colorsDark: THEME.colorsDark,
      docsHostname: "docs.owner-admin.test",
      docsRegistration: {
        hostname: "docs.owner-admin.test",
        syncedAt: null,
        dns: "PENDING",
        cnameTarget: "cname.docs-host.test",
        conflict: false,
      },
    });
    expect(theme.themeUrl).toMatch(new RegExp(`/o/${number}/api/theme$`));
    expect(theme.loaderSnippet).toMatch(/^<script src="[^"<>]*\/docs-theme\.js" data-docs-host="[^"<>]*"><\/script>$/);

    const admin = await addMember(t.db.knex, organizationId, "admin");
    const byAdmin = await setTheme(admin.apiKey, organizationId, { ...THEME, siteName: "By admin" });
    expect(byAdmin.errors).toBeUndefined();
    expect(byAdmin.data).toMatchObject({
      setDocsTheme: { siteName: "By admin", docsHostname: null, docsRegistration: null },
    });
    // By its integer id too.
    const byNumber = await gql(
      t.skiff.url,
      "query($o: ID!) { docsTheme(organizationId: $o) { siteName } }",
      { o: String(number) },
      { apiKey: owner.apiKey },
    );
    expect(byNumber.data).toEqual({ docsTheme: { siteName: "By admin" } });
  });

  it("answers NOT_FOUND to members and to other organizations; null when no theme is saved", async () => {
    const a = await org();
    const b = await org();
    const member = await addMember(t.db.knex, a.organizationId, "member");
    for (const key of [member.apiKey, b.owner.apiKey]) {
      const res = await setTheme(key, a.organizationId, THEME);
      expect(res.errors?.[0]?.extensions?.code).toBe("NOT_FOUND");
      const read = await gql(
        t.skiff.url,
        "query($o: ID!) { docsTheme(organizationId: $o) { siteName } }",
        { o: a.organizationId },
        { apiKey: key },
      );
      expect(read.errors?.[0]?.extensions?.code).toBe("NOT_FOUND");
    }
    const none = await gql(
      t.skiff.url,
      "query($o: ID!) { docsTheme(organizationId: $o) { siteName } }",
      { o: a.organizationId },
      { apiKey: a.owner.apiKey },
    );
    expect(none).toMatchObject({ data: { docsTheme: null } });
  });

  it("refuses each invalid field with BAD_USER_INPUT and fieldErrors", async () => {
    const { owner, organizationId } = await org();
    const cases: [Record<string, unknown>, string, RegExp][] = [
      [{ siteName: "  " }, "siteName", /Required/],
      [{ logoUrl: "http://cdn.acme.test/logo.svg" }, "logoUrl", /https/],
      [{ logoUrl: "not a url" }, "logoUrl", /https/],
      [{ faviconUrl: "ftp://x.test/f.ico" }, "faviconUrl", /https/],
      [{ colorsLight: { accent: "1 2% 3%" } }, "colorsLight.primary", /Required/],
      [{ colorsLight: { primary: "#112233" } }, "colorsLight.primary", /HSL triple/],
      [{ colorsDark: { primary: "400 47% 11%" } }, "colorsDark.primary", /HSL triple/],
      [{ colorsDark: { primary: "1 2% 3%", accent: "1 2 3" } }, "colorsDark.accent", /HSL triple/],
      [
        { colorsLight: { primary: "1 2% 3%", fontFamily: "Inter" } },
        "colorsLight.fontFamily",
        /Typography is not part of the theme/,
      ],
      [
        { colorsLight: { primary: "1 2% 3%", radius: "0.5rem" } },
        "colorsLight.radius",
        /Corner radius is not part of the theme/,
      ],
      [
        { colorsLight: { primary: "1 2% 3%", border: "1 2% 3%" } },
        "colorsLight.border",
        /Borders are not part of the theme/,
      ],
      [
        { colorsDark: { primary: "1 2% 3%", background: "1 2% 3%" } },
        "colorsDark.background",
        /Neutral surfaces are not part of the theme/,
      ],
      [{ customCss: "a{}".padEnd(64 * 1024 + 1, " ") }, "customCss", /64 KiB/],
      [{ footerText: "x".repeat(1001) }, "footerText", /1000/],
      [{ docsHostname: "Docs.Acme.test" }, "docsHostname", /lower case/],
      [{ docsHostname: "localhost" }, "docsHostname", /DNS name/],
      [{ docsHostname: "docs..acme.test" }, "docsHostname", /DNS name/],
    ];
    for (const [patch, field, message] of cases) {
      const res = await setTheme(owner.apiKey, organizationId, { ...THEME, ...patch });
      const error = res.errors?.[0];
      expect(error?.extensions?.code, JSON.stringify(patch).slice(0, 80)).toBe("BAD_USER_INPUT");
      const fieldErrors = error?.extensions?.fieldErrors as Record<string, string[]>;
      expect(Object.keys(fieldErrors), field).toContain(field);
      expect(fieldErrors[field]!.join(" ")).toMatch(message);
    }
    // A custom CSS of exactly 64 KiB is accepted.
    const max = await setTheme(owner.apiKey, organizationId, { ...THEME, customCss: "a{}".padEnd(64 * 1024, " ") });
    expect(max.errors).toBeUndefined();
  });

  it("keeps a docs hostname unique platform-wide; clearing it frees it", async () => {
    const a = await org();
    const b = await org();
    expect(
      (await setTheme(a.owner.apiKey, a.organizationId, { ...THEME, docsHostname: "docs.unique.test" })).errors,
    ).toBeUndefined();
    const taken = await setTheme(b.owner.apiKey, b.organizationId, { ...THEME, docsHostname: "docs.unique.test" });
    expect(taken.errors?.[0]?.extensions).toMatchObject({
      code: "BAD_USER_INPUT",
      fieldErrors: { docsHostname: ["Already used by another organization"] },
    });
    expect((await setTheme(a.owner.apiKey, a.organizationId, { ...THEME, docsHostname: null })).errors).toBeUndefined();
    expect(
      (await setTheme(b.owner.apiKey, b.organizationId, { ...THEME, docsHostname: "docs.unique.test" })).errors,
    ).toBeUndefined();
  });
});

describe("theme endpoint", () => {
  it("serves the theme document as JSON with the cache policy, a strong ETag, 304 and CORS", async () => {
    const { owner, organizationId, number } = await org();
    await setTheme(owner.apiKey, organizationId, THEME);
    const res = await fetch(`${t.skiff.url}/o/${number}/api/theme`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    expect(res.headers.get("cache-control")).toBe("public, max-age=60, s-maxage=60");
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    const etag = res.headers.get("etag")!;
    expect(etag).toMatch(/^"[A-Za-z0-9_-]{32}"$/);
    const body = await res.json();
    expect(body).toEqual({
      siteName: THEME.siteName,
      logoUrl: THEME.logoUrl,
      faviconUrl: THEME.faviconUrl,
      colorsLight: THEME.colorsLight,
      colorsDark: THEME.colorsDark,
      customCss: THEME.customCss,
      footerText: THEME.footerText,
      updatedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/),
    });

    const again = await fetch(`${t.skiff.url}/o/${number}/api/theme`, { headers: { "if-none-match": etag } });
    expect(again.status).toBe(304);
    expect(again.headers.get("etag")).toBe(etag);
    expect(again.headers.get("access-control-allow-origin")).toBe("*");
    expect(await again.text()).toBe("");
    const other = await fetch(`${t.skiff.url}/o/${number}/api/theme`, { headers: { "if-none-match": '"stale"' } });
    expect(other.status).toBe(200);

    // A changed theme changes the ETag.
    await setTheme(owner.apiKey, organizationId, { ...THEME, siteName: "Renamed" });
    const changed = await fetch(`${t.skiff.url}/o/${number}/api/theme`, { headers: { "if-none-match": etag } });
    expect(changed.status).toBe(200);
    expect(changed.headers.get("etag")).not.toBe(etag);
    expect(((await changed.json()) as { siteName: string }).siteName).toBe("Renamed");
  });

  it("serves the theme as CSS variables: :root from colorsLight, .dark from colorsDark, then the custom CSS", async () => {
    const { owner, organizationId, number } = await org();
    await setTheme(owner.apiKey, organizationId, THEME);
    const res = await fetch(`${t.skiff.url}/o/${number}/api/theme?format=css`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/css; charset=utf-8");
    expect(res.headers.get("cache-control")).toBe("public, max-age=60, s-maxage=60");
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    expect(await res.text()).toBe(
      ":root {\n  --primary: 222 47% 11%;\n  --primary-foreground: 210 40% 98%;\n  --accent: 210 40% 96.1%;\n}\n" +
        ".dark {\n  --primary: 210 40% 98%;\n  --primary-foreground: 222.2 47.4% 11.2%;\n}\n" +
        "\n.navbar { letter-spacing: 0.01em; }\n",
    );
    const etag = res.headers.get("etag")!;
    const json = await fetch(`${t.skiff.url}/o/${number}/api/theme`);
    expect(json.headers.get("etag")).not.toBe(etag);
    expect(
      (await fetch(`${t.skiff.url}/o/${number}/api/theme?format=css`, { headers: { "if-none-match": etag } })).status,
    ).toBe(304);
    const bad = await fetch(`${t.skiff.url}/o/${number}/api/theme?format=xml`);
    expect(bad.status).toBe(400);
    expect(await bad.json()).toEqual({ error: "format must be json or css" });
  });

  it("answers 404 without a theme, for an unknown organization and a malformed id; never a default theme", async () => {
    const { number } = await org();
    for (const path of [
      `/o/${number}/api/theme`,
      `/o/${number}/api/theme?format=css`,
      "/o/2147483000/api/theme",
      "/o/abc/api/theme",
      "/o/0/api/theme",
    ]) {
      const res = await fetch(`${t.skiff.url}${path}`);
      expect(res.status, path).toBe(404);
      expect(res.headers.get("access-control-allow-origin")).toBe("*");
      expect(res.headers.get("etag")).toBeNull();
      expect(Object.keys((await res.json()) as object)).toEqual(["error"]);
    }
  });

  it("answers 500 with no detail when the theme cannot be read", async () => {
    const { owner, organizationId, number } = await org();
    await setTheme(owner.apiKey, organizationId, THEME);
    await t.db.knex.raw("alter table docs_themes rename to docs_themes_away");
    try {
      const res = await fetch(`${t.skiff.url}/o/${number}/api/theme`);
      expect(res.status).toBe(500);
      expect(res.headers.get("cache-control")).toBe("no-store");
      const text = await res.text();
      expect(JSON.parse(text)).toEqual({ error: "Internal server error" });
      expect(text).not.toMatch(/docs_themes|relation|select/i);
    } finally {
      await t.db.knex.raw("alter table docs_themes_away rename to docs_themes");
    }
    expect((await fetch(`${t.skiff.url}/o/${number}/api/theme`)).status).toBe(200);
  });

  it("is not at the bare /api/theme when the instance has several organizations", async () => {
    await org();
    await org();
    const res = await fetch(`${t.skiff.url}/api/theme`);
    expect(res.status).toBe(404);
  });
});
