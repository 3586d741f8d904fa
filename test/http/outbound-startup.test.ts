/**
 * SKIFF_OUTBOUND_ALLOW is validated with the rest of the configuration, a Skiff instance
 * builds its outbound client at start (AppServices.outbound) and logs the allow-list as a warning, and that
 * client reaches an allow-listed receiver while still refusing everything else.
 */
import { Writable } from "node:stream";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config.ts";
import { OutboundBlockedError } from "../../src/http/outbound-errors.ts";
import { type RunningSkiff, startSkiff } from "../../src/server/start.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";
import { type HttpsReceiver, startHttpsReceiver } from "../helpers/https-receiver.ts";
import { TEST_SECRET } from "../helpers/seed.ts";

describe("SKIFF_OUTBOUND_ALLOW", () => {
  it("defaults to empty", () => {
    expect(loadConfig({}).SKIFF_OUTBOUND_ALLOW).toBe("");
  });

  it("fails start-up with the offending entry when malformed", () => {
    expect(() => loadConfig({ SKIFF_OUTBOUND_ALLOW: "127.0.0.1,10.0.0.0/40" })).toThrow(
      /SKIFF_OUTBOUND_ALLOW: .*"10.0.0.0\/40" is not a valid CIDR/,
    );
  });
});

describe("a started instance", () => {
  let db: TestDatabase;
  let skiff: RunningSkiff;
  let receiver: HttpsReceiver;
  const lines: Array<Record<string, unknown>> = [];

  beforeAll(async () => {
    receiver = await startHttpsReceiver();
    db = await createTestDatabase();
    const config = loadConfig({
      DATABASE_URL: db.url,
      HOST: "127.0.0.1",
      PORT: "0",
      SKIFF_METRICS_PORT: "main",
      SKIFF_SECRET: TEST_SECRET,
      SKIFF_BOOTSTRAP: "false",
      LOG_LEVEL: "warn",
      SKIFF_OUTBOUND_ALLOW: "127.0.0.1",
    });
    const sink = new Writable({
      write(chunk, _encoding, done) {
        lines.push(JSON.parse(chunk.toString()));
        done();
      },
    });
    skiff = await startSkiff(config, pino({ level: "warn" }, sink));
  });

  afterAll(async () => {
    await skiff?.stop();
    await db?.drop();
    await receiver?.close();
  });

  it("logs the allow-list as a warning at start", () => {
    const warning = lines.find((l) => String(l.msg).startsWith("SKIFF_OUTBOUND_ALLOW is set"));
    expect(warning).toMatchObject({ level: 40, allow: ["127.0.0.1"], component: "outbound" });
  });

  it("reaches the allow-listed receiver through services.outbound and refuses the rest", async () => {
    const res = await skiff.services.outbound.request({ method: "POST", url: `${receiver.url}/x`, body: "hi" });
    expect(res.status).toBe(200);
    expect(receiver.requests.map((r) => r.body.toString())).toEqual(["hi"]);
    await expect(skiff.services.outbound.request({ url: "http://[::1]/" })).rejects.toBeInstanceOf(
      OutboundBlockedError,
    );
  });
});
