/**
 * Forward pagination's arguments (src/shared/pagination.ts): an opaque cursor is `base64url("c:" + id)` and anything
 * else is BAD_USER_INPUT naming `after`; a page size lies within 1..max.
 */
import { describe, expect, it } from "vitest";
import { BadUserInputError } from "../../src/shared/errors.ts";
import { checkPageSize, decodeCursor } from "../../src/shared/pagination.ts";

const cursor = (raw: string) => Buffer.from(raw, "utf8").toString("base64url");

describe("pagination", () => {
  it("decodes a cursor to its row id", () => {
    expect(decodeCursor(cursor("c:prj_01h2xcejqtf2nbrexx3vqjhp41"))).toBe("prj_01h2xcejqtf2nbrexx3vqjhp41");
  });

  it("refuses what no compiled read wrote", () => {
    for (const bad of [cursor("c:"), cursor("x:1"), cursor("1"), "", "%%%"]) {
      expect(() => decodeCursor(bad)).toThrow(BadUserInputError);
    }
    expect(() => decodeCursor(cursor("id"))).toThrow(
      expect.objectContaining({
        message: "Invalid cursor",
        extensions: expect.objectContaining({ fieldErrors: { after: ["Not a cursor returned by this API"] } }),
      }),
    );
  });

  it("checks the page size against 1..max, naming the field", () => {
    expect(checkPageSize(1, 100)).toBe(1);
    expect(checkPageSize(100, 100)).toBe(100);
    for (const bad of [0, 101, 1.5, Number.NaN]) expect(() => checkPageSize(bad, 100)).toThrow(BadUserInputError);
    expect(() => checkPageSize(0, 50, "last")).toThrow("last must be between 1 and 50");
  });
});
