/**
 * Codegen mappers of this module: GraphQL type → the TypeScript type that backs it in resolvers
 * (`file#Export`, relative to this folder). Read by codegen.ts.
 */
export default {
  DocsTheme: "./docs-theme.model.ts#DocsThemeRow",
  PublicDocsTheme: "./docs-theme.model.ts#DocsThemeRow",
} satisfies Record<string, string>;
