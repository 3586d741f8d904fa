/** The GraphQL schema's SDL: schema/*.graphql, one file per domain, merged. */
import { readdirSync, readFileSync } from "node:fs";
import { mergeTypeDefs } from "@graphql-tools/merge";
import type { DocumentNode } from "graphql";

const schemaDir = new URL("../../schema/", import.meta.url);

/** The merged SDL of schema/*.graphql (files in name order). */
export function loadTypeDefs(): DocumentNode {
  const files = readdirSync(schemaDir)
    .filter((f) => f.endsWith(".graphql"))
    .sort();
  return mergeTypeDefs(
    files.map((f) => readFileSync(new URL(f, schemaDir), "utf8")),
    { throwOnConflict: true },
  );
}
