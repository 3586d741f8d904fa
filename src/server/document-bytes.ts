/**
 * What a parsed GraphQL document kept in a cache holds: its AST and its source text, which the AST's locations keep
 * alive (a document that is mostly a comment is a small AST holding a large text). The transport's document caches
 * (Apollo's document store, the WebSocket's checked documents) are bounded by these bytes, not by their count.
 */
import type { DocumentNode } from "graphql";

/** Most bytes ({@link documentBytes}) each document cache of the transport keeps: 30 MiB, Apollo's default size. */
export const DOCUMENT_CACHE_BYTES = 30 * 2 ** 20;

/** Bytes `document` holds: its AST as Apollo measures it (UTF-8 JSON) and its source text (UTF-16, 2 per unit). */
export function documentBytes(document: DocumentNode): number {
  return Buffer.byteLength(JSON.stringify(document), "utf8") + 2 * (document.loc?.source.body.length ?? 0);
}
