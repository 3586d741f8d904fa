/**
 * Apollo side of compiled reads: after parsing, validation and the operation-level checks (cost limit, input
 * checks), the planner (src/reads/planner.ts) answers a query in one statement when it can, with the caller's
 * confirmation handed in from remembered-callers.ts; any other operation runs through graphql-js. Over HTTP the JSON
 * text goes to the client as PostgreSQL wrote it ({@link stringifyResult}); in-process calls (REST rows) get the same
 * text ({@link RawJsonData}).
 */
import type { ApolloServerPlugin, GraphQLResponse } from "@apollo/server";
import { HeaderMap } from "@apollo/server";
import { type FormattedExecutionResult, GraphQLError } from "graphql";
import type { Context } from "../modules/context.ts";
import { answerQuery, type CallerConfirmation, RESPONSE_CLOSE, RESPONSE_OPEN, type ReadPlan } from "../reads/index.ts";
import { readFor, rememberedIdentity, statementFor } from "./remembered-callers.ts";

/**
 * The `data` of a compiled read, held as the whole answer PostgreSQL wrote (`{"data":…}` and a newline:
 * RESPONSE_OPEN/RESPONSE_CLOSE of src/reads/compiler.ts), which {@link stringifyResult} sends as is — a large answer is
 * neither re-serialized nor copied to be wrapped. REST rows parse its {@link text} or cut their body out of it
 * (rest-runner.ts, rest-bodies.ts).
 */
export class RawJsonData {
  /** The whole answer: `{"data":<text>}` and a newline. */
  readonly response: string;

  /** `response` must be the whole answer as {@link RawJsonData.fromData} writes it. */
  constructor(response: string) {
    this.response = response;
  }

  /** The data's JSON text `text` as a whole answer (copies it: for answers not written by PostgreSQL). */
  static fromData(text: string): RawJsonData {
    return new RawJsonData(`${RESPONSE_OPEN}${text}${RESPONSE_CLOSE}`);
  }

  /** The data's JSON text (a slice of the answer, which V8 does not copy). */
  get text(): string {
    return this.response.slice(RESPONSE_OPEN.length, this.response.length - RESPONSE_CLOSE.length);
  }

  /** For any other serializer: the parsed value. */
  toJSON(): unknown {
    return JSON.parse(this.text);
  }
}

/**
 * Apollo's `stringifyResult`: a compiled read's answer as PostgreSQL wrote it ({@link RawJsonData}), `JSON.stringify`
 * and a newline otherwise (Apollo's default).
 */
export function stringifyResult(result: FormattedExecutionResult): string {
  if (result.data instanceof RawJsonData && !result.errors && !result.extensions) return result.data.response;
  return `${JSON.stringify(result)}\n`;
}

/**
 * The plugin answering compilable queries by the planner (src/reads/planner.ts: its modes, when each applies): the
 * one-statement and sites modes answer here, every other operation goes on to graphql-js. `plan`: the modules'
 * declarations and how statements run; past the execution time limit (`plan.options.timeoutMs`,
 * SKIFF_EXECUTION_TIMEOUT_MS) the answer is the 400 `EXECUTION_TIME_LIMIT`, as the executor's.
 */
export function compiledReadsPlugin(plan: ReadPlan): ApolloServerPlugin<Context> {
  return {
    async requestDidStart() {
      return {
        async responseForOperation(rc): Promise<GraphQLResponse | null> {
          const ctx = rc.contextValue;
          if (!rc.operation) return null;
          const op = {
            schema: rc.schema,
            document: rc.document,
            operation: rc.operation,
            variables: rc.request.variables,
          };
          let response: string | null;
          try {
            response = await answerQuery(op, ctx, confirmationOf(ctx), plan);
          } catch (error) {
            if (!(error instanceof GraphQLError && error.extensions.code === "EXECUTION_TIME_LIMIT")) throw error;
            return {
              http: { status: 400, headers: new HeaderMap() },
              body: { kind: "single", singleResult: { errors: [error.toJSON()] } },
            };
          }
          if (response === null) return null;
          // Apollo passes `data` through untouched (typed as an object: the text stands in for it).
          const data = new RawJsonData(response) as unknown as Record<string, unknown>;
          return { http: { headers: new HeaderMap() }, body: { kind: "single", singleResult: { data } } };
        },
      };
    },
  };
}

/** `ctx`'s remembered caller as the planner confirms it in the read's statement (remembered-callers.ts). */
function confirmationOf(ctx: Context): CallerConfirmation {
  return {
    identity: rememberedIdentity(ctx),
    statement: (sql, bindings) => statementFor(ctx, sql, bindings),
    read: (row) => readFor(ctx, row),
  };
}
