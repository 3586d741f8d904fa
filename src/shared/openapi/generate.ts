/**
 * Generates an OpenAPI 3.1 document from REST rows that declare a {@link RouteDoc}. zod 4 schemas are
 * converted with `z.toJSONSchema` (JSON Schema 2020-12, the dialect of OpenAPI 3.1); schemas carrying
 * `.meta({ id })` become `#/components/schemas/<id>` and are referenced, every other schema is inlined.
 */
import { z } from "zod";
import { bodyRefusals } from "./error-bodies.ts";
import type { RouteDoc, RouteSecurity } from "./route-doc.ts";

type Json = Record<string, unknown>;

/** What the generator needs of a row: its method, Fastify path and declaration. */
export interface DocumentedRow {
  method: string;
  path: string;
  doc: RouteDoc;
}

/** Fixed parts of a document: `info`, servers, and the security schemes each {@link RouteSecurity} stands for. */
export interface DocumentInfo {
  title: string;
  version: string;
  description: string;
  /** Per credential kind, the alternatives (each a scheme name of `securitySchemes`). */
  security: Partial<Record<RouteSecurity, string[]>>;
  securitySchemes: Record<string, Json>;
  /** Credentials of operations that declare none other: emitted once as the document's top-level `security`. */
  defaultSecurity?: RouteSecurity;
  /** Tag descriptions. */
  tags?: Array<{ name: string; description: string }>;
}

const COMPONENT = "#/components/schemas/";

/** Methods whose requests may carry a body, which the server reads (and may refuse) before the route runs. */
const BODY_METHODS = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/**
 * The refusals of a body before any route runs, on every route of {@link BODY_METHODS} (src/server/json-bodies.ts,
 * format-error.ts): 400 for JSON that does not parse (or is not UTF-8, or holds `__proto__`, or nests too deep), 413
 * over the route's size limit, 415 for a media type, charset or `Content-Encoding` it does not read.
 */
const BODY_REFUSALS = bodyRefusals();

/**
 * Converts one zod schema; id'd sub-schemas are added to `components` and referenced.
 * @param io `input` for requests (what a client sends), `output` for responses.
 */
function convert(schema: z.ZodType, io: "input" | "output", components: Json): Json {
  const result = z.toJSONSchema(schema, {
    target: "draft-2020-12",
    io,
    unrepresentable: "any",
  }) as Json;
  // Local definitions are hoisted into the document's components: point their references there.
  const hoisted = JSON.parse(JSON.stringify(result).replaceAll('"#/$defs/', `"${COMPONENT}`)) as Json;
  const { $schema: _s, $defs, ...rest } = hoisted;
  for (const [id, def] of Object.entries(($defs ?? {}) as Record<string, Json>)) {
    const { $id: _id, ...body } = def;
    components[id] = body;
  }
  if (typeof rest.$id === "string") {
    // The schema itself is a component: register it and reference it.
    const { $id, ...body } = rest;
    const id = $id.startsWith(COMPONENT) ? $id.slice(COMPONENT.length) : $id;
    components[id] = body;
    return { $ref: `${COMPONENT}${id}` };
  }
  return rest;
}

/** Whether a property of a parameter object may be left out. */
function isOptional(schema: z.ZodType): boolean {
  return schema.safeParse(undefined).success;
}

/** Security requirement objects: any one of `schemes` (an empty list: no credentials). */
function requirements(schemes: string[]): Json[] {
  return schemes.map((name) => ({ [name]: [] }));
}

/** `:name` segments → `{name}`. */
export function openApiPath(fastifyPath: string): string {
  return fastifyPath.replace(/:([A-Za-z0-9_]+)/g, "{$1}");
}

function parameters(doc: RouteDoc, components: Json): Json[] {
  const out: Json[] = [];
  for (const [where, object] of [
    ["path", doc.params],
    ["query", doc.query],
    ["header", doc.headers],
  ] as const) {
    if (!object) continue;
    for (const [name, prop] of Object.entries(object.shape) as Array<[string, z.ZodType]>) {
      const schema = convert(prop, "input", components);
      const { description, ...rest } = schema;
      // A `default` given as metadata (the converter keeps only zod defaults) is documented too.
      const metaDefault = prop.meta()?.default;
      if (metaDefault !== undefined) rest.default = metaDefault;
      out.push({
        name,
        in: where,
        required: where === "path" || !isOptional(prop),
        ...(description !== undefined && { description }),
        schema: rest,
      });
    }
  }
  return out;
}

/**
 * The OpenAPI 3.1 document of `rows` (in their order; rows sharing a path share a path item).
 * @throws Error when two rows declare the same operationId or the same method and path.
 */
export function generateOpenApiDocument(info: DocumentInfo, rows: readonly DocumentedRow[]): Json {
  const components: Json = {};
  const paths: Record<string, Record<string, Json>> = {};
  const seen = new Set<string>();
  const usedTags = new Set<string>();
  for (const { method, path, doc } of rows) {
    if (seen.has(doc.operationId)) throw new Error(`Duplicate operationId ${doc.operationId}`);
    seen.add(doc.operationId);
    const key = openApiPath(path);
    paths[key] ??= {};
    const item = paths[key];
    const verb = method.toLowerCase();
    if (item[verb]) throw new Error(`Two rows document ${method} ${path}`);
    const kind = doc.security ?? info.defaultSecurity ?? "account";
    const security = info.security[kind];
    if (!security) throw new Error(`${doc.operationId}: no security scheme for ${kind}`);
    const params = parameters(doc, components);
    const operation: Json = {
      operationId: doc.operationId,
      summary: doc.summary,
      ...(doc.description && { description: doc.description }),
      ...(doc.tag && { tags: [doc.tag] }),
      ...(kind !== info.defaultSecurity && { security: requirements(security) }),
      ...(params.length && { parameters: params }),
    };
    if (doc.tag) usedTags.add(doc.tag);
    if (doc.body) {
      operation.requestBody = {
        required: !isOptional(doc.body),
        content: { "application/json": { schema: convert(doc.body, "input", components) } },
      };
    } else if (doc.bodyMediaType) {
      operation.requestBody = { required: true, content: { [doc.bodyMediaType]: { schema: { type: "string" } } } };
    }
    // What every route that reads a body refuses before it runs (docs/rest.md), unless the row documents it itself.
    const responses = BODY_METHODS.has(method) ? { ...BODY_REFUSALS, ...doc.responses } : doc.responses;
    operation.responses = Object.fromEntries(
      Object.entries(responses)
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([status, response]) => [
          status,
          {
            description: response.description,
            ...(response.headers && {
              headers: Object.fromEntries(
                Object.entries(response.headers).map(([name, description]) => [
                  name,
                  { description, schema: { type: "string" } },
                ]),
              ),
            }),
            ...((response.schema || response.mediaTypes) && {
              content: {
                ...(response.schema && {
                  "application/json": { schema: convert(response.schema, "output", components) },
                }),
                ...Object.fromEntries(
                  (response.mediaTypes ?? []).map((type) => [type, { schema: { type: "string" } }]),
                ),
              },
            }),
          },
        ]),
    );
    item[verb] = operation;
  }
  const tags = (info.tags ?? []).filter((t) => usedTags.has(t.name));
  return {
    openapi: "3.1.0",
    info: { title: info.title, version: info.version, description: info.description },
    // Relative: the document describes the instance that serves it.
    servers: [{ url: "/", description: "The Skiff instance serving this document." }],
    ...(info.defaultSecurity && { security: requirements(info.security[info.defaultSecurity] ?? []) }),
    ...(tags.length && { tags }),
    paths,
    components: { securitySchemes: info.securitySchemes, schemas: components },
  };
}
