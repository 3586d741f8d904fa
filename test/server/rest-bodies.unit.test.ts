/**
 * REST bodies cut out of a compiled read's JSON text (src/server/rest-bodies.ts): the start-up check of a
 * row's `bodyAt`, and the cut itself on answers whose strings look like the JSON around them, over several pages.
 * The end-to-end side (the agent rows on a real server, compiled against executed) is in
 * test/graph/compiled-reads.test.ts.
 */
import type { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { RawJsonData } from "../../src/server/compiled-reads.ts";
import { bodyResponse, checkBodyAt } from "../../src/server/rest-bodies.ts";
import type { RestRoute } from "../../src/shared/rest-route.ts";

/** A row running `operation` with its body at `bodyAt` (following pages of `projects` when `pages`). */
function row(operation: string, bodyAt: string[], pages = false): RestRoute & { bodyAt: string[] } {
  return {
    method: "GET",
    path: "/x",
    surface: "rest",
    published: false,
    operation,
    variables: () => ({}),
    error: (error, status) => ({ status, body: error }),
    bodyAt,
    ...(pages ? { followPages: { connection: ["projects"], cursorVariable: "after" } } : {}),
  };
}

/** The answer of a GraphQL error (as the runner's `fail` builds it from the row). */
const failed = (error: { message: string }) => ({ status: 404, body: error });

/** checkBodyAt and bodyResponse for a row made by {@link row}, at its own `bodyAt`. */
const check = (r: ReturnType<typeof row>) => checkBodyAt(r, r.bodyAt);
const respond = (
  r: ReturnType<typeof row>,
  ...rest: Parameters<typeof bodyResponse> extends [unknown, unknown, ...infer T] ? T : never
) => bodyResponse(r, r.bodyAt, ...rest);

const PAGED = `query P($after: String) { projects(first: 2, after: $after) {
  pageInfo { hasNextPage endCursor } nodes { id name } } }`;

describe("checkBodyAt", () => {
  it("takes a body selected last at each level, once, with the page info before it", () => {
    expect(() => check(row(PAGED, ["projects", "nodes"], true))).not.toThrow();
    expect(() => check(row("query A { application(id: 1) { id name } }", ["application"]))).not.toThrow();
  });

  it("refuses a body not selected last, selected twice, with a directive, under a fragment, or without page info", () => {
    const refused = [
      row("query A { projects(first: 1) { nodes { id } pageInfo { hasNextPage endCursor } } }", ["projects", "nodes"]),
      row("query A { projects(first: 1) { nodes { id } totalCount nodes { name } } }", ["projects", "nodes"]),
      row("query A($x: Boolean!) { application(id: 1) @include(if: $x) { id } }", ["application"]),
      row("query A { ... on Query { application(id: 1) { id } } }", ["application"]),
      row("query A { projects(first: 1) { nodes { id } } }", ["projects", "nodes"], true),
      row(PAGED, ["application"], true),
    ];
    for (const r of refused) expect(() => check(r), r.operation).toThrow(/bodyAt/);
  });
});

describe("bodyResponse", () => {
  // Strings holding quotes, backslashes, braces and the very keys the cut walks past.
  const tricky = 'x\\","pageInfo":{"hasNextPage":true,"endCursor":"Yzp4"},"nodes":[{}]}]} é';
  const page = (cursor: string | null, names: string[]) =>
    RawJsonData.fromData(
      JSON.stringify({
        projects: {
          pageInfo: { hasNextPage: cursor !== null, endCursor: cursor },
          nodes: names.map((name, i) => ({ id: `prj_${i}`, name })),
        },
      }),
    );

  it("sends the text at bodyAt as it is, joining every page's list", async () => {
    const pages = new Map([
      ["c1", page("c2", [])],
      ["c2", page(null, ["last"])],
    ]);
    const asked: string[] = [];
    const next = (cursor: string) => {
      asked.push(cursor);
      return Promise.resolve({ data: pages.get(cursor) });
    };
    const answer = await respond(row(PAGED, ["projects", "nodes"], true), page("c1", [tricky, "b"]), next, failed);
    expect(asked).toEqual(["c1", "c2"]);
    expect(answer).toMatchObject({ status: 200, headers: { "content-type": "application/json; charset=utf-8" } });
    const body = (answer as { body: string }).body;
    expect(typeof body).toBe("string");
    expect(JSON.parse(body)).toEqual([
      { id: "prj_0", name: tricky },
      { id: "prj_1", name: "b" },
      { id: "prj_0", name: "last" },
    ]);
  });

  it("reads executed answers (objects) at the same path, and reports a later page's error", async () => {
    const executed = { application: { id: "app_1", name: tricky } };
    const answer = await respond(
      row("query A { application(id: 1) { id name } }", ["application"]),
      executed,
      () => Promise.reject(new Error("no pages")),
      failed,
    );
    expect(answer).toEqual({ status: 200, body: executed.application });
    const error = { message: "gone", extensions: { code: "NOT_FOUND" } };
    const later = () => Promise.resolve({ errors: [error] });
    expect(await respond(row(PAGED, ["projects", "nodes"], true), page("c1", ["a"]), later, failed)).toEqual(
      failed(error),
    );
  });

  it("answers BAD_USER_INPUT through the row, not an internal error, when more pages follow than maxPages", async () => {
    const base = row(PAGED, ["projects", "nodes"], true);
    const capped = { ...base, followPages: { connection: ["projects"], cursorVariable: "after", maxPages: 2 } };
    let cursor = 0;
    const endless = () => Promise.resolve({ data: page(`c${++cursor}`, ["again"]) });
    const answer = await respond(capped, page("c0", ["a"]), endless, (error) => ({ status: 400, body: error }));
    expect(cursor).toBe(1);
    expect(answer).toMatchObject({
      status: 400,
      body: { message: expect.stringContaining("narrow the request"), extensions: { code: "BAD_USER_INPUT" } },
    });
  });

  it("streams NDJSON page by page, reading a page only when the previous one is taken, and aborts on a failed page", async () => {
    const ndjson = { ...row(PAGED, ["projects", "nodes"], true) };
    ndjson.followPages = { connection: ["projects"], cursorVariable: "after", ndjson: true, maxPages: 2 };
    let asked = 0;
    // Past maxPages: a stream has no page cap.
    const pages = (last: number) => (cursor: string) => {
      asked++;
      const n = Number(cursor.slice(1));
      return Promise.resolve({ data: page(n < last ? `c${n + 1}` : null, [`p${n}`]) });
    };
    const answer = await respond(ndjson, page("c1", [tricky]), pages(4), failed);
    expect(answer.headers).toEqual({ "content-type": "application/x-ndjson; charset=utf-8" });
    const stream = answer.body as Readable;
    expect(asked).toBe(0);
    const lines: string[] = [];
    for await (const chunk of stream) lines.push(...String(chunk).trim().split("\n"));
    expect(lines.map((line) => (JSON.parse(line) as { name: string }).name)).toEqual([tricky, "p1", "p2", "p3", "p4"]);
    expect(asked).toBe(4);

    const error = { message: "gone", extensions: { code: "NOT_FOUND" } };
    const broken = await respond(ndjson, page("c1", ["a"]), () => Promise.resolve({ errors: [error] }), failed);
    const read = async () => {
      for await (const _ of broken.body as Readable);
    };
    await expect(read()).rejects.toThrow(/The export stopped: gone/);
  });

  it("walks past earlier fields whatever their strings hold", async () => {
    const text = JSON.stringify({ note: tricky, list: [{ a: tricky }, "]}"], n: -1.5e3, application: { id: tricky } });
    const answer = await respond(
      row("query A { application(id: 1) { id } }", ["application"]),
      RawJsonData.fromData(text),
      () => Promise.reject(new Error("no pages")),
      failed,
    );
    expect(JSON.parse((answer as { body: string }).body)).toEqual({ id: tricky });
  });

  it("refuses text not shaped as the row's operation answers", async () => {
    const cut = (text: string) =>
      respond(
        row("query A { application(id: 1) { id } }", ["application"]),
        RawJsonData.fromData(text),
        () => Promise.reject(new Error("no pages")),
        failed,
      );
    await expect(cut('{"other":{"id":"a"}}')).rejects.toThrow(/Unexpected answer text/);
    await expect(cut('{"application":{"id":"a"}')).rejects.toThrow(/Unexpected answer text/);
  });
});
