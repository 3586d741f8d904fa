/**
 * `npm start`: validates configuration, starts the database (embedded unless DATABASE_URL is set),
 * migrates, serves HTTP/GraphQL, and on an empty database creates the first owner, organization and
 * API key, printing them once with ready-to-run examples.
 */
import { bootstrapFirstRun } from "./bootstrap.ts";
import { loadConfig } from "./config.ts";
import { createLogger, startSkiff } from "./server/start.ts";

const config = loadConfig();
const log = createLogger(config);
const started = Date.now();
const skiff = await startSkiff(config, log).catch((error: unknown) => {
  log.fatal({ err: error }, "Skiff could not start");
  process.stderr.write(`\nSkiff could not start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
log.info({ url: skiff.url, embeddedDatabase: skiff.database.embedded, ms: Date.now() - started }, "Skiff is ready");

if (config.SKIFF_BOOTSTRAP) {
  const first = await bootstrapFirstRun(skiff.services.auth, skiff.services.knex, {
    email: config.SKIFF_BOOTSTRAP_EMAIL,
    password: config.SKIFF_BOOTSTRAP_PASSWORD,
    apiKey: config.SKIFF_BOOTSTRAP_API_KEY,
    log,
  });
  if (first) {
    await skiff.services
      .knex("organizations")
      .where({ id: first.organizationId })
      .update({ plan_id: "plan_unlimited" });
    process.stdout.write(firstRunBanner(skiff.url, first));
  }
}

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, async () => {
    log.info({ signal }, "shutting down");
    await skiff.stop();
    process.exit(0);
  });
}

/** The text printed once on first run: credentials and examples that work as printed. */
function firstRunBanner(url: string, first: { email: string; password: string; apiKey: string }): string {
  const query =
    "{ viewer { user { email } activeOrganization { name projects(first: 5) { totalCount edges { node { name } } } } } }";
  return `
================ Skiff first run ================
Owner account : ${first.email}
Password      : ${first.password}
API key       : ${first.apiKey}
(These are shown once. The API key is stored hashed and cannot be read again.)

Try it:
  curl -s ${url}/graphql \\
    -H 'content-type: application/json' \\
    -H 'authorization: Bearer ${first.apiKey}' \\
    -d '{"query":"${query}"}'
=================================================
`;
}
