/**
 * Text as PostgreSQL stores it: a `text` or `jsonb` value holds no NUL character and no lone surrogate (the
 * server refuses the whole statement). For text that comes from outside (a cluster's or a receiver's message, a
 * build's log, an error): a NUL becomes U+FFFD, a lone surrogate is made well formed, everything else is kept.
 */

/** `text` with NUL replaced by U+FFFD and lone surrogates made well formed (see the module comment). */
export function storableText(text: string): string {
  return text.toWellFormed().replaceAll("\u0000", "\ufffd");
}
