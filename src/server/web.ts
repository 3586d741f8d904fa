/**
 * The dashboard: the single-page app built by Vite into `web/dist` (`npm run build:web`, run by `prestart` and the
 * test suite's global setup when it is stale), served by Skiff itself. Hashed assets under `/assets/*` (cached for a
 * year); the page routes answer `index.html` (never cached), every other path keeps its own handler or the 404.
 * The pages are not part of the published API: with SKIFF_PUBLIC_API_ONLY=true they are not registered (404).
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import fastifyStatic from "@fastify/static";
import type { FastifyInstance } from "fastify";
import type { Config } from "../config.ts";

/** Folder the dashboard is built into (git-ignored). */
export const WEB_DIST_DIR = join(import.meta.dirname, "..", "..", "web", "dist");

/** Paths of the dashboard's pages, answered with the app's `index.html` (the client routes them). */
export const PAGE_PATHS = [
  "/",
  "/sign-in",
  "/sign-up",
  "/accept-invitation",
  "/import-sites",
  "/settings",
  "/settings/deploy",
  "/apps/:id",
  "/projects",
  "/projects/:id/payments",
  "/settings/docs",
  "/forgot-password",
  "/reset-password",
  "/account",
  "/docs/api",
  "/docs/graphql",
  "/settings/audit",
] as const;

/**
 * Content-Security-Policy of every dashboard page (the pages show secrets). Scripts, styles, fonts and
 * connections only from Skiff's own origin (`'self'` covers the same-origin graphql-ws `ws(s)://` URL); inline
 * styles are allowed for the docs theme preview, whose sandboxed `srcdoc` frame holds the theme's CSS as the theme
 * endpoint serves it; images also over https (logo and favicon previews of the docs theme) and `data:`; fonts also as
 * `data:` (the GraphQL explorer's stylesheet, as GraphiQL ships it, embeds its editor fonts so; a font runs no code,
 * and nothing else is loosened); no plugin,
 * no `<base>`, forms post only to Skiff, and `frame-ancestors 'none'`: no other site may frame a page (clickjacking).
 */
export const DASHBOARD_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' https: data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "frame-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join("; ");

/** OAuth providers whose client id and secret are both set (the sign-in page shows their buttons). */
export function enabledOAuthProviders(config: Config): string[] {
  const pairs: [string, string | undefined, string | undefined][] = [
    ["github", config.GITHUB_CLIENT_ID, config.GITHUB_CLIENT_SECRET],
    ["google", config.GOOGLE_CLIENT_ID, config.GOOGLE_CLIENT_SECRET],
    ["gitlab", config.GITLAB_CLIENT_ID, config.GITLAB_CLIENT_SECRET],
  ];
  return pairs.filter(([, id, secret]) => id && secret).map(([name]) => name);
}

/**
 * Registers the dashboard's page routes and assets on `app` (nothing when `config.SKIFF_PUBLIC_API_ONLY`). Without a build (`index.html` missing) the pages
 * answer 503 with the command that builds them, so the API keeps working.
 */
export async function registerWeb(app: FastifyInstance, config: Config, distDir = WEB_DIST_DIR): Promise<void> {
  if (config.SKIFF_PUBLIC_API_ONLY) return;
  if (!existsSync(join(distDir, "index.html"))) {
    for (const path of PAGE_PATHS) {
      app.get(path, async (_request, reply) =>
        reply
          .code(503)
          .type("text/plain; charset=utf-8")
          .send("The dashboard is not built: run `npm run build:web` (npm start and npm test do it).\n"),
      );
    }
    return;
  }
  await app.register(fastifyStatic, {
    root: join(distDir, "assets"),
    prefix: "/assets/",
    index: false,
    immutable: true,
    maxAge: "365d",
  });
  // The configured OAuth providers travel in the page itself, so the sign-in page needs no extra request.
  const providers = enabledOAuthProviders(config).join(",");
  const html = readFileSync(join(distDir, "index.html"), "utf8").replace(
    "</head>",
    `<meta name="skiff-oauth-providers" content="${providers}" />\n  </head>`,
  );
  for (const path of PAGE_PATHS) {
    app.get(path, async (_request, reply) =>
      reply
        .type("text/html; charset=utf-8")
        .header("cache-control", "no-cache")
        .header("x-content-type-options", "nosniff")
        .header("referrer-policy", "same-origin")
        .header("content-security-policy", DASHBOARD_CSP)
        .header("x-frame-options", "DENY")
        .send(html),
    );
  }
}
