/**
 * Checks real responses against a served OpenAPI 3.1 document (ajv, JSON Schema 2020-12): the operation of a
 * `METHOD /fastify/:path` route must document the status, and the body must validate against that status's
 * JSON schema (`$ref`s resolved inside the document). A non-JSON body (`contentType` given, e.g. `text/css`) must
 * have its media type documented for the status.
 */
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";

type Operation = { responses: Record<string, { content?: Record<string, { schema: unknown }> }> };
const JSON_TYPE = "application/json";
/** A served OpenAPI document, as far as the checker reads it. */
export type OpenApiDoc = { openapi: string; paths: Record<string, Record<string, Operation>> } & Record<
  string,
  unknown
>;

const pointer = (s: string) => s.replaceAll("~", "~0").replaceAll("/", "~1");

/** Fetches and parses a document; throws unless it answers 200 JSON. */
export async function fetchOpenApi(url: string): Promise<OpenApiDoc> {
  const res = await fetch(url);
  if (res.status !== 200) throw new Error(`${url}: ${res.status}`);
  return (await res.json()) as OpenApiDoc;
}

/**
 * A checker over `docs`. `check(route, status, bodyText, contentType?)` returns the problems (empty: documented
 * and valid), or null when no document has an operation for `route`. `contentType` (a response's header, parameters
 * ignored) defaults to JSON.
 */
export function responseChecker(docs: readonly OpenApiDoc[]) {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats.default(ajv);
  for (const [i, doc] of docs.entries()) ajv.addSchema(doc as object, `doc${i}`);
  return (route: string, status: number, bodyText: string, contentType = JSON_TYPE): string[] | null => {
    const [method, fastifyPath] = route.split(" ") as [string, string];
    const path = fastifyPath.replace(/:([A-Za-z0-9_]+)/g, "{$1}");
    const i = docs.findIndex((d) => d.paths[path]?.[method.toLowerCase()]);
    if (i < 0) return null;
    const operation = docs[i]!.paths[path]![method.toLowerCase()]!;
    const response = operation.responses[String(status)];
    if (!response) return [`${route}: status ${status} is not documented`];
    const schemaPath = `doc${i}#/paths/${pointer(path)}/${method.toLowerCase()}/responses/${status}`;
    if (!response.content) return bodyText === "" ? [] : [`${route} ${status}: documented without a body`];
    const mediaType = contentType.split(";")[0]!.trim().toLowerCase();
    if (mediaType !== JSON_TYPE) {
      return response.content[mediaType] ? [] : [`${route} ${status}: media type ${mediaType} is not documented`];
    }
    let body: unknown;
    try {
      body = JSON.parse(bodyText);
    } catch {
      return [`${route} ${status}: body is not JSON: ${bodyText.slice(0, 100)}`];
    }
    const validate = ajv.getSchema(`${schemaPath}/content/application~1json/schema`);
    if (!validate) return [`${route} ${status}: schema not found`];
    if (validate(body)) return [];
    return [`${route} ${status}: ${ajv.errorsText(validate.errors)} in ${bodyText.slice(0, 300)}`];
  };
}
