/**
 * Input validation of the site import API (spec: "Import request", Limits) as zod schemas. The service, the
 * GraphQL resolvers and the REST/procedure rows all parse with these same schemas, so every surface reports
 * the same precise field errors: `BadUserInputError` whose `fieldErrors` map a dot-separated path
 * (e.g. `source.repo`, `envVars.MY KEY`) to messages and whose `formErrors` concern the input as a whole.
 */
import { z } from "zod";
import { nameText, optional, requiredOr, text } from "../../shared/input-fields.ts";
import { queryInteger } from "../../shared/query-params.ts";
import { parseInput } from "../../shared/validate.ts";

import { envVarsSchema, hostnameSchema as hostname, portSchema, sourceSchema } from "../applications/index.ts";
import { databaseEnvVars, databaseSchema } from "../databases/index.ts";

/**
 * The import request (spec: "Import request"), normalised: defaults applied, strings trimmed, hosts lower-cased.
 * The application's variables — `envVars` merged after the database's automatic ones — are held to the variables
 * rules together (`envVarsSchema`: at most 200), refused under `envVars`.
 */
export const siteImportRequestSchema = z
  .strictObject(
    {
      organizationId: text(100),
      name: nameText(100),
      domain: optional(hostname),
      database: optional(databaseSchema),
      source: sourceSchema,
      envVars: envVarsSchema.nullish().transform((v) => v ?? {}),
      port: portSchema.nullish().transform((v) => v ?? 80),
    },
    requiredOr("an object"),
  )
  .superRefine((input, ctx) => {
    // An `envVars` refused on its own is reported once, under its own rules.
    if (!input.database || !envVarsSchema.safeParse(input.envVars).success) return;
    const automatic = databaseEnvVars(input.database, "");
    const merged = { ...automatic, ...input.envVars };
    for (const issue of envVarsSchema.safeParse(merged).error?.issues ?? []) {
      ctx.addIssue({
        code: "custom",
        path: ["envVars", ...issue.path],
        message: `${issue.message}, the database's ${Object.keys(automatic).length} automatic variables included (this import makes ${Object.keys(merged).length})`,
      });
    }
  });

/**
 * A validated import request: `source.branch` defaults to `main` and `source.buildPath` to `/` (sources that
 * build, i.e. not docker), `source.buildType` to `dockerfile`, `port` to 80, `envVars` to `{}`.
 */
export type SiteImportRequest = z.output<typeof siteImportRequestSchema>;

/** An integer argument of JSON or GraphQL: a number from `min` to `max`; null or absent mean `fallback`. */
const intArg = ({ min, max, default: fallback }: { min: number; max: number; default: number }) =>
  z
    .number(requiredOr("an integer"))
    .int("Must be an integer")
    .min(min, `Must be ${min} to ${max}`)
    .max(max, `Must be ${min} to ${max}`)
    .nullish()
    .transform((v) => v ?? fallback);

/** Page size (spec: Limits): 1 to 100, default 50. */
const PAGE_SIZE = { min: 1, max: 100, default: 50 };
/** Records to skip: 0 or more, default 0. */
const PAGE_OFFSET = { min: 0, max: 2_147_483_647, default: 0 };

/** Procedure list input `{ limit?, offset? }` (siteImport.list): an object of these fields alone. */
export const listArgsSchema = z.strictObject(
  { limit: intArg(PAGE_SIZE), offset: intArg(PAGE_OFFSET) },
  requiredOr("an object"),
);

/** Query of GET /api/site-import (`?limit=&offset=`, src/shared/query-params.ts's rule): validates and documents it. */
export const listQuerySchema = z.object({ limit: queryInteger(PAGE_SIZE), offset: queryInteger(PAGE_OFFSET) });

/** The variables of a list read from {@link listQuerySchema}'s output: the defaults where a parameter is absent. */
export const listQueryDefaults = (query: z.output<typeof listQuerySchema>) => ({
  limit: query.limit ?? PAGE_SIZE.default,
  offset: query.offset ?? PAGE_OFFSET.default,
});

/** GraphQL `siteImports` arguments: the same rules, with the Relay name `first` for the page size. */
export const connectionArgsSchema = z.object({ first: intArg(PAGE_SIZE), offset: intArg(PAGE_OFFSET) });

/** Procedure input `{ siteImportId }` (siteImport.get, siteImport.retry). */
export const siteImportIdSchema = z.strictObject({ siteImportId: text(100) }, requiredOr("an object"));

/** Procedure input `{ siteImportId, rollbackResources? }` (siteImport.delete). */
export const deleteArgsSchema = z.strictObject(
  {
    siteImportId: text(100),
    rollbackResources: z
      .boolean(requiredOr("a boolean"))
      .nullish()
      .transform((v) => v ?? false),
  },
  requiredOr("an object"),
);

/** Parses an import request. @throws BadUserInputError (see {@link toBadUserInput}). */
export function parseSiteImportRequest(raw: unknown): SiteImportRequest {
  return parseInput(siteImportRequestSchema, raw, "Invalid import request");
}
