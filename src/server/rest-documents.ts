/**
 * REST rows' GraphQL documents parsed and validated once, at start-up: Apollo's document store
 * is given these documents up front, pinned, so a REST call never parses or validates — not even its first one —
 * while the rest of the pipeline (cost limit, execution deadline, input checks, error formatting) stays the same as
 * on /graphql. Other documents (clients' own) are cached as Apollo does by default, in an LRU.
 */
import { createHash } from "node:crypto";
import { InMemoryLRUCache, type KeyValueCache } from "@apollo/utils.keyvaluecache";
import { type DocumentNode, type GraphQLSchema, parse } from "graphql";
import type { AnyRestRoute } from "../shared/rest-route.ts";
import { DOCUMENT_CACHE_BYTES, documentBytes } from "./document-bytes.ts";

/** sha256 hex of a document's text: Apollo's query hash, the last part of its document store keys. */
function queryHash(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}

/**
 * An Apollo `documentStore` holding the REST rows' documents forever and any other document in an LRU of at most
 * DOCUMENT_CACHE_BYTES, counting each document's source text (document-bytes.ts).
 * Apollo keys entries `<schema hash>:<query hash>`; pinned documents are found by the query hash.
 */
export class RestDocumentStore implements KeyValueCache<DocumentNode> {
  private readonly pinned = new Map<string, DocumentNode>();
  private readonly others = new InMemoryLRUCache<DocumentNode>({
    maxSize: DOCUMENT_CACHE_BYTES,
    sizeCalculation: documentBytes,
  });

  /**
   * Parses and validates every GraphQL row's operation with `validate` (the rules /graphql applies) and pins it.
   * @throws Error at start-up when a row's document does not parse or validate.
   */
  pin(
    routes: readonly AnyRestRoute[],
    schema: GraphQLSchema,
    validate: (s: GraphQLSchema, d: DocumentNode) => readonly Error[],
  ): void {
    for (const route of routes) {
      if (!("operation" in route)) continue;
      const document = parse(route.operation);
      const errors = validate(schema, document);
      if (errors.length)
        throw new Error(`REST row ${route.method} ${route.path}: ${errors.map((e) => e.message).join("; ")}`);
      this.pinned.set(queryHash(route.operation), document);
    }
  }

  /** Number of pinned documents. */
  get size(): number {
    return this.pinned.size;
  }

  async get(key: string): Promise<DocumentNode | undefined> {
    return this.pinned.get(key.slice(key.lastIndexOf(":") + 1)) ?? this.others.get(key);
  }

  async set(key: string, value: DocumentNode): Promise<void> {
    if (!this.pinned.has(key.slice(key.lastIndexOf(":") + 1))) await this.others.set(key, value);
  }

  async delete(key: string): Promise<boolean> {
    return (await this.others.delete(key)) ?? false;
  }
}
