/**
 * How error messages repeat a caller-given value (src/shared/errors.ts `echoed`): whole up to 80 characters, else cut
 * with its length, never leaving half of a surrogate pair.
 */
import { describe, expect, it } from "vitest";
import { echoed, NotFoundError } from "../../src/shared/errors.ts";

describe("echoed", () => {
  it("repeats a value of at most 80 characters whole", () => {
    expect(echoed("app_01jz0000000000000000000000")).toBe("app_01jz0000000000000000000000");
    expect(echoed("x".repeat(80))).toBe("x".repeat(80));
  });

  it("repeats a longer value by its first 80 characters and its length", () => {
    expect(echoed("y".repeat(1_000_000))).toBe(`${"y".repeat(80)}… (1000000 characters)`);
    expect(new NotFoundError("Project", `prj_${"z".repeat(200)}`).message).toBe(
      `Project prj_${"z".repeat(76)}… (204 characters) not found`,
    );
  });

  it("never ends its cut with half of a surrogate pair", () => {
    const cut = echoed(`${"a".repeat(79)}😀${"b".repeat(10)}`);
    expect(cut.isWellFormed()).toBe(true);
    expect(cut).toBe(`${"a".repeat(79)}\ufffd… (91 characters)`);
  });
});
