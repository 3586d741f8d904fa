/**
 * One implementation per read: every field the modules
 * declare as SQL (`reads`) is declared by one module only and has no resolver in any module, and the resolvers
 * that remain on object types are exactly the ones listed here, each with why it is not a declaration. A new
 * resolver on a table type fails this test until it is either declared as SQL or listed with its reason.
 */
import { describe, expect, it } from "vitest";
import { moduleReads, moduleResolvers, modules } from "../../src/modules/index.ts";

/** The resolvers that stay, by `Type.field`, and why each is not compiled SQL. */
const REMAINING: Record<string, string> = {
  // Not a column: the value is decrypted or computed in Node from the row the statement carries (`__row`).
  "EnvironmentVariable.value": "decrypted from the row's encrypted column (shown to callers who may see secrets)",
  "Application.deployWebhookUrl": "a URL computed from the public origin and the application's deploy token",
  "Invitation.link": "a URL with the decrypted token, for owners and admins, while the invitation is pending",
  "SiteImport.inputConfig": "decrypted from input_encrypted and masked",
  "SiteImport.databaseType": "read from the decrypted input (input_encrypted)",
  "PaymentGatewayService.signingKey": "decrypted from the sealed column, for callers with payment:manage",
  "PaymentGatewayService.checkoutUrl": "a URL the gateway client computes from the merchant code",
  "PaymentGatewayService.paymentMethods": "asked of the payment gateway (outside Skiff's database)",
  "DocsRegistration.cnameTarget": "the instance's configured CNAME target (SKIFF_DOCS_CNAME_TARGET)",
  "DocsTheme.themeUrl": "a URL computed from SKIFF_BASE_URL and the organization's database id",
  "DocsTheme.loaderSnippet": "an HTML snippet computed from the configuration",
  // Root fields that read no table with the caller's visibility.
  "Query.invitationLink": "public: finds an invitation by its secret token (hashed lookup, no caller)",
  "Query.previewSiteImport": "fetches the remote site through the outbound client",
  "Query.webhookEvents": "the static event catalogue (no table)",
  "Query.docsHostLookup": "public hostname lookup for the docs domain router (no caller)",
  "Query.organizationExport": "assembles the bundle from every module's export function and encrypts its secrets",
  "Query.organizationImportPlan": "compares a given bundle with the organization's own (built like the export)",
  // Payloads built by a mutation or an event; their table-typed fields are re-read by id as compiled SQL.
  "SiteImportResult.importId": "importSite's outcome, from the run that just ended",
  "SiteImportResult.status": "importSite's outcome",
  "SiteImportResult.projectId": "importSite's outcome",
  "SiteImportResult.applicationId": "importSite's outcome",
  "SiteImportResult.databaseId": "importSite's outcome",
  "SiteImportResult.databaseType": "importSite's outcome (from its input)",
  "SiteImportResult.databaseServiceHost": "importSite's outcome",
  "SiteImportResult.domainId": "importSite's outcome",
  "SiteImportResult.errorMessage": "importSite's outcome",
  "SiteImportResult.errorStep": "importSite's outcome",
  "SiteImportResult.siteImport": "hands the record's id on: the SiteImport is re-read by id as compiled SQL",
  "SiteImportUpdate.siteImport": "hands the event's id on: re-read by id as compiled SQL, once per event",
  "DeploymentUpdate.deployment": "hands the event's id on: re-read by id as compiled SQL, once per event",
};

/** Root operation types: their resolvers are mutations and subscriptions, not reads of a column. */
const OPERATIONS = new Set(["Mutation", "Subscription"]);

/** `Type.field` of every resolver the modules define on object types (scalars excluded). */
function resolverFields(): string[] {
  return moduleResolvers.flatMap((map) =>
    Object.entries(map as Record<string, unknown>).flatMap(([type, fields]) => {
      if (OPERATIONS.has(type) || !fields || typeof fields !== "object" || "serialize" in fields) return [];
      return Object.keys(fields).map((field) => `${type}.${field}`);
    }),
  );
}

describe("one implementation per read", () => {
  it("declares each field in one module only", () => {
    const owners = new Map<string, string[]>();
    for (const m of modules)
      for (const [type, fields] of Object.entries(m.reads ?? {}))
        for (const field of Object.keys(fields))
          owners.set(`${type}.${field}`, [...(owners.get(`${type}.${field}`) ?? []), m.name]);
    const twice = [...owners].filter(([, names]) => names.length > 1);
    expect(twice).toEqual([]);
    // The inventory the README's Performance section gives: declared fields and those derived from the descriptors'
    // columns (src/reads/columns.ts).
    const compiled = Object.values(moduleReads).reduce((n, fields) => n + Object.keys(fields).length, 0);
    expect(compiled).toBeGreaterThanOrEqual(200);
  });

  it("has no resolver for a declared field", () => {
    const both = resolverFields().filter((f) => {
      const [type, field] = f.split(".") as [string, string];
      return moduleReads[type]?.[field] !== undefined;
    });
    expect(both).toEqual([]);
  });

  it("keeps only the listed resolvers, each with its reason", () => {
    expect(resolverFields().sort()).toEqual(Object.keys(REMAINING).sort());
  });
});
