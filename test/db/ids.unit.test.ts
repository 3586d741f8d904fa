/** TypeIDs stamped with their instant (src/db/ids.ts): the instant is the one the id's UUIDv7 holds. */
import { TypeID } from "typeid-js";
import { describe, expect, it } from "vitest";
import { newTimedId } from "../../src/db/ids.ts";

describe("newTimedId", () => {
  it("answers the millisecond its UUIDv7 holds, which is now", () => {
    for (let i = 0; i < 100; i++) {
      const before = Date.now();
      const { id, at } = newTimedId("auditEvent");
      const after = Date.now();
      const uuid = TypeID.fromString(id).toUUID().replaceAll("-", "");
      expect(at.getTime()).toBe(Number.parseInt(uuid.slice(0, 12), 16));
      expect(at.getTime()).toBeGreaterThanOrEqual(before);
      expect(at.getTime()).toBeLessThanOrEqual(after);
      expect(id).toMatch(/^aud_[0-9a-z]{26}$/);
    }
  });
});
