/**
 * REST bodies taken as they are from a row's answer (the agent REST bodies built by the same
 * statement): a row that declares `bodyAt` answers 200 with the value at that path of `data`, its documented field
 * names spelled by the operation's aliases. A compiled read's answer is the JSON text its statement wrote (compact,
 * keys in selection order): the body is cut out of that text without parsing it, which the row's operation makes
 * exact by selecting the path's field last at each level ({@link checkBodyAt}, at registration). An executed
 * answer (objects) is read at the path. Rows that follow pages concatenate the list of every page.
 */
import { Readable } from "node:stream";
import { type FieldNode, Kind, type OperationDefinitionNode, parse, type SelectionSetNode } from "graphql";
import type { RestError, RestResponse, RestRoute } from "../shared/rest-route.ts";
import { RawJsonData } from "./compiled-reads.ts";

/** A page's `pageInfo` as the row selects it. */
interface PageInfo {
  hasNextPage: boolean;
  endCursor: string | null;
}

/** Another execution of the row's operation: the page after `cursor`. */
type Execute = (cursor: string) => Promise<{ data?: unknown; errors?: readonly RestError[] }>;

const JSON_HEADERS = { "content-type": "application/json; charset=utf-8" };
const NDJSON_HEADERS = { "content-type": "application/x-ndjson; charset=utf-8" };

/**
 * Checks that `route.operation` selects `bodyAt` as the last field at each level, once and without directives,
 * fields only (no fragments) along the path, and — with `followPages` — `pageInfo { hasNextPage endCursor }` before it at the connection.
 * @throws Error naming the row when it does not (a programming error, found at start-up).
 */
export function checkBodyAt(route: RestRoute, bodyAt: readonly string[]): void {
  const fail = (why: string) => {
    throw new Error(`REST row ${route.method} ${route.path}: bodyAt ${bodyAt.join(".")} ${why}`);
  };
  const operation = parse(route.operation).definitions.find(
    (d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION,
  );
  const connection = route.followPages?.connection;
  if (connection?.some((key, i) => bodyAt[i] !== key)) fail("is not inside followPages.connection");
  let set: SelectionSetNode | undefined = operation?.selectionSet;
  bodyAt.forEach((key, level) => {
    const fields = set?.selections ?? [];
    if (fields.some((s) => s.kind !== Kind.FIELD)) fail(`has a fragment at level ${level}`);
    const last = fields.at(-1) as FieldNode | undefined;
    if ((last?.alias ?? last?.name)?.value !== key) fail(`is not the last field selected at level ${level}`);
    // Selected once, unconditionally: a repeated response key would keep its first place in the answer.
    const same = (fields as FieldNode[]).filter((f) => (f.alias ?? f.name).value === key);
    if (same.length > 1 || last?.directives?.length) fail(`is selected twice or with a directive at level ${level}`);
    if (level === connection?.length) {
      const info = (fields as FieldNode[]).find((f) => (f.alias ?? f.name).value === "pageInfo");
      const keys = info?.selectionSet?.selections.map((s) => (s.kind === Kind.FIELD ? s.name.value : ""));
      if (!keys?.includes("hasNextPage") || !keys.includes("endCursor")) fail("follows pages without pageInfo");
    }
    set = last?.selectionSet;
  });
}

/** The end of the JSON value starting at `i` of `text` (the index after it). */
function skipValue(text: string, i: number): number {
  let depth = 0;
  let inString = false;
  for (let j = i; j < text.length; j++) {
    const c = text.charCodeAt(j);
    if (inString) {
      // A backslash escapes the next character.
      if (c === 92) j++;
      else if (c === 34) {
        inString = false;
        if (depth === 0) return j + 1;
      }
    } else if (c === 34) inString = true;
    else if (c === 123 || c === 91) depth++;
    else if (c === 125 || c === 93) {
      if (depth === 0) return j;
      depth--;
      if (depth === 0) return j + 1;
    } else if (c === 44 && depth === 0) return j;
  }
  return text.length;
}

/**
 * The value at `path` of compact JSON text `text` whose path field is the last at each level, and the `pageInfo`
 * object met on the way at depth `pageInfoAt` (null: none asked).
 * @throws Error when the text is not shaped so (not an answer of a row checked by {@link checkBodyAt}).
 */
function cutBody(text: string, path: readonly string[], pageInfoAt: number | null) {
  let i = 0;
  let pageInfo: PageInfo | null = null;
  const broken = () => new Error(`Unexpected answer text at ${i} while cutting ${path.join(".")}`);
  for (let level = 0; level < path.length; level++) {
    if (text.charCodeAt(i) !== 123) throw broken();
    i++;
    for (;;) {
      // Response keys are GraphQL names: no escapes inside the quotes.
      const close = text.indexOf('"', i + 1);
      if (text.charCodeAt(i) !== 34 || close < 0 || text.charCodeAt(close + 1) !== 58) throw broken();
      const key = text.slice(i + 1, close);
      i = close + 2;
      if (key === path[level]) break;
      const end = skipValue(text, i);
      if (level === pageInfoAt && key === "pageInfo") pageInfo = JSON.parse(text.slice(i, end)) as PageInfo;
      if (text.charCodeAt(end) !== 44) throw broken();
      i = end + 1;
    }
  }
  const end = text.length - path.length;
  // The closing braces of the levels, and a value that ends as it begins (a cheap check, not a parse).
  const [first, last] = [text[i], text[end - 1]];
  const closes = first === "{" ? "}" : first === "[" ? "]" : first === '"' ? '"' : null;
  if (!text.endsWith("}".repeat(path.length)) || end <= i || (closes && last !== closes)) throw broken();
  return { body: text.slice(i, end), pageInfo };
}

/** `data`'s value at `path` and the `pageInfo` at depth `pageInfoAt`, from JSON text or objects. */
function bodyOf(data: unknown, path: readonly string[], pageInfoAt: number | null) {
  if (data instanceof RawJsonData) return cutBody(data.text, path, pageInfoAt);
  let node = data;
  let pageInfo: PageInfo | null = null;
  path.forEach((key, level) => {
    if (level === pageInfoAt) pageInfo = (node as { pageInfo?: PageInfo }).pageInfo ?? null;
    node = (node as Record<string, unknown> | null)?.[key];
  });
  return { body: node, pageInfo };
}

/**
 * The 200 answer of `route` (which declares `bodyAt`) for the successful `data` of its first execution; with
 * `followPages`, `execute` fetches the later pages and their lists are concatenated; a later page's first GraphQL
 * error is answered by `fail`. An NDJSON row streams instead ({@link ndjsonStream}).
 * More than `maxPages` pages answer `fail` with BAD_USER_INPUT (narrow the request).
 * @throws Error when an answer lacks the body.
 */
export async function bodyResponse(
  route: RestRoute,
  bodyAt: readonly string[],
  data: unknown,
  execute: Execute,
  fail: (error: RestError) => RestResponse,
): Promise<RestResponse> {
  const follow = route.followPages;
  const pageInfoAt = follow ? follow.connection.length : null;
  let page = bodyOf(data, bodyAt, pageInfoAt);
  if (follow?.ndjson) {
    if (page.body === undefined || page.body === null) throw new Error(`No body at ${bodyAt.join(".")}`);
    const lines = ndjsonStream(page, bodyAt, pageInfoAt, execute);
    return { status: 200, body: Readable.from(lines, { objectMode: false }), headers: NDJSON_HEADERS };
  }
  const bodies = [page.body];
  const maxPages = follow?.maxPages ?? 1000;
  for (let n = 1; follow && page.pageInfo?.hasNextPage && page.pageInfo.endCursor; n++) {
    if (n >= maxPages) {
      // The whole list would not fit one answer: the client's request is too wide, not a server fault.
      return fail({
        message: `More than ${maxPages} pages of ${follow.connection.join(".")} match: narrow the request (a shorter time range or a filter)`,
        extensions: { code: "BAD_USER_INPUT", fieldErrors: {}, formErrors: [`More than ${maxPages} pages match`] },
      });
    }
    const next = await execute(page.pageInfo.endCursor);
    if (next.errors?.length) return fail(next.errors[0]!);
    page = bodyOf(next.data, bodyAt, pageInfoAt);
    bodies.push(page.body);
  }
  if (bodies.some((b) => b === undefined || b === null)) throw new Error(`No body at ${bodyAt.join(".")}`);
  if (bodies.every((b): b is string => typeof b === "string")) {
    // JSON texts: one array of every page's items.
    const items = bodies.map((b) => b.slice(1, -1)).filter((b) => b);
    const text = bodies.length === 1 ? bodies[0] : `[${items.join(",")}]`;
    return { status: 200, body: text, headers: JSON_HEADERS };
  }
  // Some page was executed rather than compiled (e.g. its statement failed): values throughout.
  const values = bodies.map((b) => (typeof b === "string" ? (JSON.parse(b) as unknown) : b));
  return { status: 200, body: values.length === 1 ? values[0] : (values as unknown[][]).flat() };
}

/**
 * The NDJSON lines (one JSON value per line, UTF-8) of `first` and of every page after it, each page read once the
 * client has taken the previous one (the stream's back-pressure): an export of any length holds one page in memory
 * and has no page cap. The status is sent before later pages are read, so one that fails ends the stream with an
 * error, which aborts the chunked answer: the client sees a truncated transfer, never a short export that looks whole.
 * @throws Error (into the stream) on a later page's GraphQL error or a page without the body.
 */
async function* ndjsonStream(
  first: { body: unknown; pageInfo: PageInfo | null },
  bodyAt: readonly string[],
  pageInfoAt: number | null,
  execute: Execute,
): AsyncGenerator<string> {
  let page = first;
  for (;;) {
    if (page.body === undefined || page.body === null) throw new Error(`No body at ${bodyAt.join(".")}`);
    const items = (typeof page.body === "string" ? JSON.parse(page.body) : page.body) as unknown[];
    if (items.length) yield items.map((item) => `${JSON.stringify(item)}\n`).join("");
    const cursor = page.pageInfo?.hasNextPage ? page.pageInfo.endCursor : null;
    if (!cursor) return;
    const next = await execute(cursor);
    if (next.errors?.length) throw new Error(`The export stopped: ${next.errors[0]!.message}`);
    page = bodyOf(next.data, bodyAt, pageInfoAt);
  }
}
