/**
 * Client-mistake checks before execution, shared by HTTP (Apollo plugin, also used by
 * the in-process REST rows) and graphql-ws (`onSubscribe`):
 * - a string input that is not well-formed Unicode (a lone surrogate such as `"\ud800"`) or that holds the NUL
 *   character (U+0000, which no PostgreSQL text or jsonb value can hold), in a variable or an inline literal, is
 *   refused before it reaches encoding or the database, naming the field (`extensions.field`, e.g.
 *   `input.database.password`, `input.events[1]`): 400 BAD_USER_INPUT, or 404 NOT_FOUND where the field is an `ID`
 *   (no object has such an id: it answers as any id that names nothing, as a REST path that does not decode does);
 *   a REST row's query string and body are checked before its operation runs, naming the field as the client wrote
 *   it. Federation representations (`_Any`) are left to `_entities`, which resolves a key no row can have to null;
 * - a `subscription` sent over HTTP is refused with 400 BAD_REQUEST pointing to the WebSocket endpoint;
 * - (HTTP) `variables` and `extensions` nested deeper than src/shared/json-text.ts's MAX_JSON_DEPTH, measured as
 *   in a POST body (`{ variables, extensions }`), are refused with 400 BAD_REQUEST: a POST body that deep never
 *   gets here (its parser refuses it), but a GET's are parsed by Apollo.
 */
import type { ApolloServerPlugin } from "@apollo/server";
import {
  type DocumentNode,
  GraphQLError,
  type GraphQLInputType,
  type GraphQLSchema,
  getNamedType,
  getNullableType,
  getOperationAST,
  isInputObjectType,
  isInputType,
  isListType,
  type OperationDefinitionNode,
  TypeInfo,
  typeFromAST,
  visit,
  visitWithTypeInfo,
} from "graphql";
import { jsonTooDeep } from "../shared/json-text.ts";
import { jsonTooDeepError } from "./json-bodies.ts";

/**
 * Whether `text` can be stored (and so compared with a stored id): well-formed Unicode without the NUL character.
 * Federation's `_entities` resolves a representation whose key is not to null, as any id that names nothing
 * (src/server/schema.ts).
 */
export function isStorableText(text: string): boolean {
  return textProblem(text) === null;
}

/** What makes `text` unstorable — a lone surrogate, or NUL — or null when nothing does. */
function textProblem(text: string): Problem | null {
  if (!text.isWellFormed()) return "surrogate";
  return text.includes("\u0000") ? "nul" : null;
}

/** Why a string input is refused: a lone surrogate (not well-formed UTF-16), or the NUL character. */
type Problem = "surrogate" | "nul";

/** Where a refused string lies inside a value: object keys and array indexes, outermost first. */
type Segments = ReadonlyArray<string | number>;

/**
 * Path and problem of the first string inside `value` (in document order) that {@link textProblem} refuses, or
 * null. Walks with a stack of its own, so no nesting overflows the call stack.
 */
function malformedPath(value: unknown): { segments: Segments; problem: Problem } | null {
  const values: unknown[] = [value];
  const paths: Segments[] = [[]];
  while (values.length > 0) {
    const current = values.pop();
    const path = paths.pop() as Segments;
    if (typeof current === "string") {
      const problem = textProblem(current);
      if (problem) return { segments: path, problem };
    } else if (Array.isArray(current)) {
      // Pushed last to first: the first element is taken next.
      for (let i = current.length - 1; i >= 0; i--) {
        values.push(current[i]);
        paths.push([...path, i]);
      }
    } else if (current && typeof current === "object") {
      const entries = Object.entries(current);
      for (let i = entries.length - 1; i >= 0; i--) {
        const [key, inner] = entries[i] as [string, unknown];
        values.push(inner);
        paths.push([...path, key]);
      }
    }
  }
  return null;
}

/** A variable path as GraphQL spells it: `input.events[0]`. */
function graphqlPath(segments: Segments): string {
  return segments.reduce<string>(
    (path, s) => (typeof s === "number" ? `${path}[${s}]` : path ? `${path}.${s}` : s),
    "",
  );
}

/** The input type at `segments` inside a value of `type` (list indexes, input object fields), or undefined. */
function inputTypeAt(type: GraphQLInputType | undefined, segments: Segments): GraphQLInputType | undefined {
  let current = type;
  for (const segment of segments) {
    const nullable = current && getNullableType(current);
    if (isListType(nullable) && typeof segment === "number") current = nullable.ofType;
    else if (isInputObjectType(nullable) && typeof segment === "string") current = nullable.getFields()[segment]?.type;
    else return undefined;
  }
  return current;
}

/** Whether `type` is `ID` (or a list of them): a value there can only name an object. */
function isIdType(type: GraphQLInputType | undefined): boolean {
  return type !== undefined && getNamedType(type).name === "ID";
}

/**
 * Whether `type` is federation's `_Any` (or a list of it): `_entities`'s representations, whose strings are checked
 * by `_entities` itself (src/server/schema.ts: a key no row can have resolves to null, another field is ignored).
 */
function isRepresentationType(type: GraphQLInputType | null | undefined): boolean {
  return type != null && getNamedType(type).name === "_Any";
}

/** A refused string: where it is, why, and whether the field there is an `ID`. */
interface Found {
  field: string;
  problem: Problem;
  id: boolean;
}

/** {@link malformedLiteral}'s answer per parsed document (Apollo hands the same object back for the same text). */
const literalChecks = new WeakMap<DocumentNode, Found | null>();

/** Argument or object-field name holding the first refused string literal of `document`, and why; or null. */
function malformedLiteral(schema: GraphQLSchema, document: DocumentNode): Found | null {
  const known = literalChecks.get(document);
  if (known !== undefined) return known;
  const found = findMalformedLiteral(schema, document);
  literalChecks.set(document, found);
  return found;
}

function findMalformedLiteral(schema: GraphQLSchema, document: DocumentNode): Found | null {
  let found: Found | null = null;
  const segments: Array<string | number> = [];
  const types = new TypeInfo(schema);
  // A value inside a list literal is named by its index (`events[1]`), as in variables.
  const item = {
    enter: (_node: unknown, key: unknown) => void (typeof key === "number" && segments.push(key)),
    leave: (_node: unknown, key: unknown) => void (typeof key === "number" && segments.pop()),
  };
  // Representations (`_Any`) are skipped: `_entities` checks them itself.
  let representations = 0;
  const container = {
    enter: (node: unknown, key: unknown) => {
      item.enter(node, key);
      if (isRepresentationType(types.getInputType())) representations++;
    },
    leave: (node: unknown, key: unknown) => {
      item.leave(node, key);
      if (isRepresentationType(types.getInputType())) representations--;
    },
  };
  visit(
    document,
    visitWithTypeInfo(types, {
      Argument: { enter: (node) => void segments.push(node.name.value), leave: () => void segments.pop() },
      ObjectField: { enter: (node) => void segments.push(node.name.value), leave: () => void segments.pop() },
      ListValue: container,
      ObjectValue: container,
      StringValue: {
        enter(node, key) {
          item.enter(node, key);
          const type = types.getInputType();
          const problem = found || representations > 0 || isRepresentationType(type) ? null : textProblem(node.value);
          if (problem)
            found = { field: graphqlPath(segments) || "(literal)", problem, id: isIdType(type ?? undefined) };
        },
        leave: item.leave,
      },
    }),
  );
  return found;
}

/**
 * The refusal of the first string input of `document`/`variables` (the operation `operationName` runs) that is not
 * well-formed Unicode or holds NUL — 404 NOT_FOUND in an `ID`, else 400 BAD_USER_INPUT — or null when every string
 * is storable.
 */
export function unicodeError(
  schema: GraphQLSchema,
  document: DocumentNode,
  variables: Record<string, unknown> | undefined | null,
  operationName?: string | null,
): GraphQLError | null {
  const definitions = getOperationAST(document, operationName)?.variableDefinitions ?? [];
  const typeOf = (name: string) => {
    const definition = definitions.find((d) => d.variable.name.value === name);
    const declared = definition && typeFromAST(schema, definition.type);
    return isInputType(declared) ? declared : undefined;
  };
  // Representations (`_Any`) are checked by `_entities` itself.
  const checked = Object.fromEntries(
    Object.entries(variables ?? {}).filter(([name]) => !isRepresentationType(typeOf(name))),
  );
  const inVariables = malformedPath(checked);
  let found: Found | null;
  if (inVariables) {
    const [name, ...inside] = inVariables.segments;
    const declared = typeOf(String(name));
    const type = declared ? inputTypeAt(declared, inside) : undefined;
    found = { field: graphqlPath(inVariables.segments), problem: inVariables.problem, id: isIdType(type) };
  } else {
    found = malformedLiteral(schema, document);
  }
  return found && textRefusal(found);
}

/**
 * Whether a REST input field at `segments` holds an id, by the rows' naming of ids (docs/rest.md: the target is
 * `applicationId`, `projectId`, …; lists of them `applicationIds`): `id`, a name ending in `Id`, or an item of a
 * name ending in `Ids`.
 */
function isIdField(segments: ReadonlyArray<string | number>): boolean {
  const last = segments.at(-1);
  if (typeof last === "string") return last === "id" || /^[a-z][A-Za-z]*Id$/.test(last);
  const list = segments.at(-2);
  return typeof list === "string" && /^[a-z][A-Za-z]*Ids$/.test(list);
}

/**
 * The same refusal for a REST row's own input, before the row builds its operation's variables: the first
 * unstorable string of the query string or the JSON body, named as the client wrote it (`limit`, `description`,
 * `events.0` — dot-separated, as the rows' own validation names fields), not by the GraphQL variable it becomes; in
 * an id field ({@link isIdField}) or a path parameter (each names an object: an organization, an endpoint, a
 * delivery, an import) a 404, as any id that names nothing. Null when every string is storable.
 */
export function restUnicodeError(req: { params?: unknown; query: unknown; body: unknown }) {
  const inPath = malformedPath(req.params ?? {});
  if (inPath) return textRefusal({ field: inPath.segments.join("."), problem: inPath.problem, id: true });
  const found = malformedPath(req.query ?? {}) ?? malformedPath(req.body ?? {});
  if (!found) return null;
  return textRefusal({
    field: found.segments.join(".") || "(body)",
    problem: found.problem,
    id: isIdField(found.segments),
  });
}

/** The refusal of a string at `field`: 404 NOT_FOUND in an `ID` (no object has that id), else 400 BAD_USER_INPUT. */
function textRefusal({ field, problem, id }: Found): GraphQLError {
  if (id) {
    const why = problem === "surrogate" ? "is not well-formed Unicode" : "holds the NUL character (U+0000)";
    return new GraphQLError(`No object has this id: "${field}" ${why}`, {
      extensions: { code: "NOT_FOUND", field, http: { status: 404 } },
    });
  }
  const [message, fieldError] =
    problem === "surrogate"
      ? [`Invalid Unicode in "${field}": the text contains a lone surrogate`, "Invalid Unicode (lone surrogate)"]
      : [
          `Invalid text in "${field}": the text contains the NUL character (U+0000), which no stored text can hold`,
          "Must not contain the NUL character (U+0000)",
        ];
  return new GraphQLError(message, {
    extensions: {
      code: "BAD_USER_INPUT",
      field,
      fieldErrors: { [field]: [fieldError] },
      formErrors: [],
      http: { status: 400 },
    },
  });
}

/** Apollo plugin applying the checks of this module (see the module comment). */
export function inputChecksPlugin<C extends object>(): ApolloServerPlugin<C> {
  return {
    async requestDidStart() {
      return {
        async didResolveOperation(rc) {
          const operation = rc.operation as OperationDefinitionNode | undefined;
          if (operation?.operation === "subscription" && rc.request.http) {
            throw new GraphQLError("Subscriptions are served over WebSocket (graphql-transport-ws) on /graphql", {
              extensions: { code: "BAD_REQUEST", http: { status: 400 } },
            });
          }
          // A POST's body was measured by its parser already; a GET's variables are parsed by Apollo.
          const fromQueryString = rc.request.http?.method === "GET";
          if (fromQueryString && jsonTooDeep({ variables: rc.request.variables, extensions: rc.request.extensions })) {
            throw jsonTooDeepError();
          }
          const error = unicodeError(rc.schema, rc.document, rc.request.variables, rc.operationName);
          if (error) throw error;
        },
      };
    },
  };
}
