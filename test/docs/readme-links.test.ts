/**
 * The docs a newcomer walks: the README stays short (≤ 250 lines) and links
 * each surface's page, and every relative link in README.md and docs/*.md reaches an existing file and, when it
 * names an anchor, a heading of that file (GitHub's heading ids).
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const root = resolve(import.meta.dirname, "../..");
const pages = [
  "README.md",
  ...readdirSync(join(root, "docs")).flatMap((f) => (f.endsWith(".md") ? [`docs/${f}`] : [])),
];

/** Markdown outside fenced code blocks (headings and links inside code are not markdown). */
function prose(markdown: string): string {
  return markdown.replace(/^```[\s\S]*?^```/gm, "");
}

/** GitHub's id of a heading: link text kept, lower case, punctuation dropped, spaces as hyphens. */
function slug(heading: string): string {
  return heading
    .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/\s/g, "-");
}

/** Ids of the headings of the page at `path` (relative to the repository root). */
function anchors(path: string): Set<string> {
  const headings = [...prose(readFileSync(join(root, path), "utf8")).matchAll(/^#{1,6} (.+)$/gm)];
  return new Set(headings.map((m) => slug(m[1]!.trim())));
}

/** Relative link targets (`[text](target)`, images included) of the page at `path`. */
function links(path: string): string[] {
  const text = prose(readFileSync(join(root, path), "utf8")).replace(/`[^`\n]*`/g, "");
  return [...text.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]!).filter((t) => !/^[a-z]+:/i.test(t));
}

describe("README and docs/", () => {
  it("keeps the README at most 250 lines, linking every surface's page and the configuration", () => {
    const readme = readFileSync(join(root, "README.md"), "utf8");
    expect(readme.split("\n").length).toBeLessThanOrEqual(250);
    expect(readme).toContain("npm install && npm start");
    expect(readme).toContain("npm test");
    expect(readme).toMatch(/^## Performance$/m);
    for (const page of [
      "graphql",
      "subscriptions",
      "rest",
      "agent-api",
      "webhooks",
      "payments",
      "deployments",
      "docs-theming",
      "site-imports",
      "sign-in",
      "cli",
      "operations",
      "performance",
      "architecture",
      "configuration",
      "dependencies",
    ]) {
      expect(readme, page).toContain(`](docs/${page}.md`);
    }
  });

  it("has no broken relative link or anchor", () => {
    expect(pages.length).toBeGreaterThan(15);
    const broken: string[] = [];
    let checked = 0;
    for (const page of pages) {
      for (const target of links(page)) {
        checked++;
        const [file, anchor] = target.split("#") as [string, string | undefined];
        const path = file === "" ? page : relative(root, resolve(root, dirname(page), decodeURI(file)));
        if (!existsSync(join(root, path))) broken.push(`${page}: ${target} (no file ${path})`);
        else if (anchor && path.endsWith(".md") && !anchors(path).has(anchor)) broken.push(`${page}: ${target}`);
      }
    }
    expect(checked).toBeGreaterThan(100);
    expect(broken).toEqual([]);
  });
});
