/**
 * Writes docs/schemas/organization-bundle.schema.json, the JSON Schema (draft 2020-12) of the organization bundle,
 * from its zod definition (src/modules/transfer/bundle.schema.ts). Run by `npm run codegen`; `npm run codegen:check`
 * fails when the committed file is stale.
 */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { bundleJsonSchema } from "../src/modules/transfer/bundle.schema.ts";

const file = join(import.meta.dirname, "..", "docs", "schemas", "organization-bundle.schema.json");
await writeFile(file, `${JSON.stringify(bundleJsonSchema(), null, 2)}\n`);
