/**
 * The socket under Skiff's pg connections (src/db/message-socket.ts, memory under large answers): each
 * `data` event pg receives holds whole protocol messages, nothing is lost, reordered or duplicated however the
 * reads cut the stream (random cuts, seeded), and on a real PostgreSQL large and multi-byte values, many rows, an
 * error after a large row and a connection closed under a read behave as on a plain socket.
 */
import fc from "fast-check";
import type { Knex } from "knex";
import type pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MessageFramer } from "../../src/db/message-socket.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";

/** `bytes` walked header by header: true when they are whole messages, ending exactly at the end. */
function wholeMessages(bytes: Buffer): boolean {
  let at = 0;
  while (at + 5 <= bytes.length) at += 1 + bytes.readUInt32BE(at + 1);
  return at === bytes.length && bytes.length > 0;
}

/** A protocol message: type byte, length (counting itself), `bodyLength` bytes of `fill`. */
function message(type: number, bodyLength: number, fill: number): Buffer {
  const bytes = Buffer.alloc(5 + bodyLength, fill);
  bytes[0] = type;
  bytes.writeUInt32BE(4 + bodyLength, 1);
  return bytes;
}

describe("MessageFramer", () => {
  it("hands on whole messages, each byte once and in order, however reads cut the stream", () => {
    const bodies = fc.oneof(fc.integer({ min: 0, max: 40 }), fc.integer({ min: 0, max: 300_000 }));
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.integer({ min: 65, max: 90 }), bodies), { minLength: 1, maxLength: 12 }),
        fc.array(fc.integer({ min: 1, max: 65_536 }), { minLength: 1, maxLength: 40 }),
        (messages, readSizes) => {
          const stream = Buffer.concat(messages.map(([type, length], i) => message(type, length, i)));
          const out: Buffer[] = [];
          const framer = new MessageFramer((bytes) => out.push(bytes));
          // Reads as a socket makes them (at most 64 KiB), into one buffer that the next read overwrites.
          const readBuffer = Buffer.alloc(65_536);
          for (let at = 0, i = 0; at < stream.length; i++) {
            const n = Math.min(readSizes[i % readSizes.length]!, stream.length - at);
            stream.copy(readBuffer, 0, at, at + n);
            framer.push(readBuffer.subarray(0, n));
            readBuffer.fill(0xee);
            at += n;
          }
          expect(out.every(wholeMessages)).toBe(true);
          expect(Buffer.concat(out).equals(stream)).toBe(true);
        },
      ),
      { seed: 21, numRuns: 300 },
    );
  });

  it("hands on as read what follows a length no message can have (too short or too long)", () => {
    const out: Buffer[] = [];
    const framer = new MessageFramer((bytes) => out.push(bytes));
    const good = message(90, 1, 73);
    const bad = Buffer.from([69, 0, 0, 0, 2, 1, 2, 3]);
    framer.push(Buffer.concat([good, bad]));
    framer.push(Buffer.from([4, 5]));
    expect(out).toEqual([Buffer.concat([good, bad]), Buffer.from([4, 5])]);

    // A length past anything PostgreSQL sends (4 GiB) allocates nothing: handed on as read.
    const huge: Buffer[] = [];
    const other = new MessageFramer((bytes) => huge.push(bytes));
    const header = Buffer.from([68, 0xff, 0xff, 0xff, 0xff, 1, 2]);
    other.push(header);
    expect(huge).toEqual([header]);
  });
});

describe("pg connections on framed sockets", () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(async () => {
    await db?.drop();
  });

  /** Runs `fn` on a connection of the test database's pool, recording the `data` events its socket emits. */
  async function onConnection<T>(fn: (client: pg.Client) => Promise<T>): Promise<{ result: T; reads: Buffer[] }> {
    const client = (await db.knex.client.acquireConnection()) as pg.Client & {
      connection: { stream: NodeJS.EventEmitter };
    };
    const reads: Buffer[] = [];
    const record = (bytes: Buffer) => reads.push(bytes);
    client.connection.stream.on("data", record);
    try {
      return { result: await fn(client), reads };
    } finally {
      client.connection.stream.off("data", record);
      await db.knex.client.releaseConnection(client);
    }
  }

  it("answers large, multi-byte and many-row results whole, in whole messages", async () => {
    const { result, reads } = await onConnection(async (client) => {
      const large = await client.query("select repeat('ab', 1500000) as t");
      const accents = await client.query("select repeat('é€😀', 200000) as t");
      const rows = await client.query("select g from generate_series(1, 50000) g");
      return { large: large.rows[0].t as string, accents: accents.rows[0].t as string, rows: rows.rows };
    });
    expect(result.large).toBe("ab".repeat(1_500_000));
    expect(result.accents).toBe("é€😀".repeat(200_000));
    expect(result.rows).toHaveLength(50_000);
    expect(result.rows[49_999]).toEqual({ g: 50_000 });
    // A 3 MB row arrives in many reads; the socket still hands pg whole messages only.
    expect(reads.length).toBeGreaterThan(3);
    expect(reads.every(wholeMessages)).toBe(true);
    expect(Math.max(...reads.map((r) => r.length))).toBeGreaterThan(3_000_000);
  });

  it("reports an error that follows a large row, and the connection answers after it", async () => {
    const knex: Knex = db.knex;
    await expect(
      knex.raw(
        "select repeat('x', 500000) as t union all select (1 / (select count(*) from pg_class where false))::text",
      ),
    ).rejects.toMatchObject({ code: "22012" });
    expect((await knex.raw("select 41 + 1 as n")).rows).toEqual([{ n: 42 }]);
  });

  it("fails a statement whose connection is closed under a large answer, and the pool connects again", async () => {
    const knex: Knex = db.knex;
    await onConnection(async (victim) => {
      const pid = (await victim.query("select pg_backend_pid() as pid")).rows[0].pid as number;
      // The backend is ended while it sends a 20 MB answer: the statement fails, nothing hangs.
      const pending = victim.query("select repeat('y', 20000000) as t, pg_sleep(0.2)");
      const closed = new Promise((resolve) => victim.once("end", resolve));
      await new Promise((resolve) => setTimeout(resolve, 100));
      const ended = await onConnection((other) => other.query("select pg_terminate_backend($1) as ended", [pid]));
      expect(ended.result.rows).toEqual([{ ended: true }]);
      // PostgreSQL's FATAL reaches the client first, or (its socket still full of the answer) only the socket's end.
      await expect(pending).rejects.toThrow(/terminating connection|Connection terminated unexpectedly/);
      await closed; // the socket's end reaches pg: the pool discards the connection when it is released
    });
    expect((await knex.raw("select 1 as n")).rows).toEqual([{ n: 1 }]);
  });
});
