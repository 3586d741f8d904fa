/**
 * docs/configuration.md is generated from src/config.ts's schema: this test
 * fails when the page differs from what `npm run docs:config` renders now, so a variable added, removed or
 * re-described in the schema without regenerating the page fails the suite.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { CONFIG_DOCS_PATH, renderConfigDocs } from "../../scripts/config-docs.ts";
import { configSchema } from "../../src/config.ts";

describe("docs/configuration.md", () => {
  const rendered = renderConfigDocs();

  it("documents every variable of the schema with its type, default and description", () => {
    const variables = Object.keys(configSchema.shape);
    expect(variables.length).toBeGreaterThan(60);
    for (const name of variables) {
      expect(rendered, name).toMatch(new RegExp(`^\\| \`${name}\` \\| [^|]+ \\| [^|]+ \\| .{10,} \\|$`, "m"));
    }
    expect(rendered).toContain("| `PORT` | integer 0–65535 | `4000` | Listen port");
  });

  it("is the page `npm run docs:config` writes (run it after changing src/config.ts)", () => {
    const onDisk = readFileSync(CONFIG_DOCS_PATH, "utf8");
    expect(onDisk, "docs/configuration.md is stale: run `npm run docs:config`").toBe(rendered);
  });
});
