/**
 * The platform slug of an application (`newAppName`): a DNS-1035 label made from its name, accents dropped rather
 * than turned into hyphens, other characters hyphens, `app-` before a name that does not start with a letter.
 */
import { describe, expect, it } from "vitest";
import { newAppName } from "../../src/modules/applications/application.service.ts";

/** The slug without its random suffix. */
const base = (name: string) => newAppName(name).replace(/-[0-9a-z]{6}$/, "");

describe("newAppName", () => {
  it("keeps the letters of accented names and makes a DNS-1035 label of any name", () => {
    expect(base("Résumé")).toBe("resume");
    expect(base("Café Crème")).toBe("cafe-creme");
    expect(base("Ärger über Öl")).toBe("arger-uber-ol");
    expect(base("1shop")).toBe("app-1shop");
    expect(base("日本語")).toBe("app");
    expect(base(`${"x".repeat(60)}`)).toBe("x".repeat(40));
    for (const name of ["Résumé", "日本語", "--a--", "9", "A".repeat(100), "e\u0301\u0301\u0301"]) {
      expect(newAppName(name)).toMatch(/^[a-z]([-a-z0-9]{0,61}[a-z0-9])?$/);
    }
  });
});
