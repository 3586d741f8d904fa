/** Request lines in logs keep the route and lose the credentials in URLs (src/server/log-redaction.ts). */
import { describe, expect, it } from "vitest";
import { redactUrl } from "../../src/server/log-redaction.ts";

describe("redactUrl", () => {
  it.each([
    ["/api/deploy/abcDEF123", "/api/deploy/[redacted]"],
    ["/api/deploy/abc?x=1", "/api/deploy/[redacted]?x=1"],
    ["/api/deploy/", "/api/deploy/"],
    ["/api/auth/reset-password/tok123?callbackURL=%2F", "/api/auth/reset-password/[redacted]?callbackURL=%2F"],
    ["/accept-invitation?token=s3cret", "/accept-invitation?token=[redacted]"],
    ["/api/auth/callback/github?code=c0de&state=st4te", "/api/auth/callback/github?code=[redacted]&state=[redacted]"],
    ["/x?TOKEN=a&page=2&Api_Key=b", "/x?TOKEN=[redacted]&page=2&Api_Key=[redacted]"],
    ["/x?%74oken=a", "/x?%74oken=[redacted]"],
    ["/x?token", "/x?token"],
    ["/graphql?query=%7B__typename%7D", "/graphql?query=%7B__typename%7D"],
    ["/x?%E0%A4%A=1", "/x?%E0%A4%A=1"],
  ])("%s → %s", (url, expected) => {
    expect(redactUrl(url)).toBe(expected);
  });
});
