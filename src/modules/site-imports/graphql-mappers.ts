/**
 * Codegen mappers of this module: GraphQL type → the TypeScript type that backs it in resolvers
 * (`file#Export`, relative to this folder). Read by codegen.ts.
 */
export default {
  SiteImport: "./site-import.model.ts#SiteImport",
  SiteImportResult: "./site-import.service.ts#ImportOutcome",
  SiteImportConnection: "./site-import.service.ts#SiteImportConnection",
  SiteImportPreview: "./site-import.service.ts#ImportPreview",
  SiteImportDeletion: "./site-import.service.ts#SiteImportDeletion",
  SiteImportUpdate: "./site-import.events.ts#SiteImportEvent",
} satisfies Record<string, string>;
