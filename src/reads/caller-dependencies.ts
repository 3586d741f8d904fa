/**
 * What of its caller a compiled read depended on, so that one subscription result can serve every subscriber whose
 * caller agrees on it (src/server/shared-execution.ts). A read's statement is a function of the operation (text,
 * variables), the event and the {@link ReadCaller} fields the declarations read; two callers equal on those fields
 * get the same statements, hence the same rows and the same result. The transport executes the first subscriber's
 * operation with a *probe* on its context ({@link SHARING_PROBE}); the compiled reads then give the declarations a
 * caller that records every field they read ({@link recordingCaller}), as paths, and another subscriber shares
 * the result when its {@link callerFingerprint} over those paths is the same.
 *
 * Paths: `a` whether there is a caller at all (authenticated: {@link isAuthenticated}); `f\0<field>` a field of
 * the caller (`userId`, `organizationId`, `via`, `now`…); `o\0<org>` whether the caller has a standing in
 * organization `<org>`; `o\0<org>\0<property>` a property of that standing (`role`, `grants`, `planFeatures`,
 * `memberId`…); `o\0*` every standing (the map enumerated or its size read).
 */
import type { ReadCaller } from "./compiler.ts";
import type { ReadContext, ReadStanding } from "./context.ts";

/** The key under which a probing context answers its {@link SharingProbe} (other reads of it are watched). */
export const SHARING_PROBE = Symbol("skiff.sharingProbe");

/** A probe on a context: the context itself (reads through it are not watched) and the caller paths read. */
export interface SharingProbe {
  readonly context: ReadContext;
  readonly paths: Set<string>;
}

/** The probe of `ctx` when it is a probing context (src/server/shared-execution.ts), else undefined. */
export function sharingProbeOf(ctx: ReadContext): SharingProbe | undefined {
  return (ctx as unknown as { [SHARING_PROBE]?: SharingProbe })[SHARING_PROBE];
}

/** Separator of a path's parts (never in an id, a field or a property name). */
const SEP = "\u0000";
/** The path of "there is a caller". */
const AUTHENTICATED = "a";

/**
 * Whether `ctx` has a caller (the request authenticated), recorded as a dependency on a probing context: a
 * result is shared only among subscribers that are all authenticated or all not.
 */
export function isAuthenticated(ctx: ReadContext): boolean {
  const probe = sharingProbeOf(ctx);
  if (!probe) return Boolean(ctx.caller);
  probe.paths.add(AUTHENTICATED);
  return Boolean(probe.context.caller);
}

/** The path of the caller's clock (a fingerprint over it is the instant's only). */
export const NOW_PATH = `f${SEP}now`;
/** The path of "every standing". */
const ALL_ORGS = `o${SEP}*`;

/**
 * `caller` with every read of its fields, of its organization map and of the standings in it recorded in `paths`.
 * The values returned are the caller's own (a standing's `grants` is its object): only what was read is recorded.
 */
export function recordingCaller(caller: ReadCaller, paths: Set<string>): ReadCaller {
  const orgs = caller.orgs;
  const standing = (organizationId: string, value: ReadStanding | undefined) =>
    value === undefined
      ? undefined
      : new Proxy(value, {
          get(target, property) {
            if (typeof property === "string") paths.add(`o${SEP}${organizationId}${SEP}${property}`);
            return Reflect.get(target, property, target);
          },
        });
  const all = () => {
    paths.add(ALL_ORGS);
    return orgs;
  };
  const recordedOrgs: ReadonlyMap<string, ReadStanding> = {
    get size() {
      return all().size;
    },
    has(organizationId) {
      paths.add(`o${SEP}${organizationId}`);
      return orgs.has(organizationId);
    },
    get(organizationId) {
      paths.add(`o${SEP}${organizationId}`);
      return standing(organizationId, orgs.get(organizationId));
    },
    keys: () => all().keys(),
    values: () => all().values(),
    entries: () => all().entries(),
    forEach: (each, thisArg) => all().forEach(each, thisArg),
    [Symbol.iterator]: () => all()[Symbol.iterator](),
  };
  return new Proxy(caller, {
    get(target, property) {
      if (property === "orgs") return recordedOrgs;
      if (typeof property === "string") paths.add(`f${SEP}${property}`);
      return Reflect.get(target, property, target);
    },
  });
}

/**
 * A string equal for two callers exactly when they agree on every path of `paths` (as {@link recordingCaller}
 * recorded them): values in a canonical JSON (sets and maps sorted, dates as ISO strings).
 */
export function callerFingerprint(caller: ReadCaller, paths: readonly string[]): string {
  let out = "";
  for (const path of paths) {
    const [kind, name, property] = path.split(SEP);
    let value: unknown;
    if (kind === AUTHENTICATED) value = caller.userId !== null;
    else if (kind === "f") value = (caller as unknown as Record<string, unknown>)[name!];
    else if (name === "*") value = caller.orgs;
    else if (property === undefined) value = caller.orgs.has(name!);
    else value = (caller.orgs.get(name!) as unknown as Record<string, unknown> | undefined)?.[property];
    out += `${canonical(value)}${SEP}`;
  }
  return out;
}

/** Canonical texts of the organization maps already fingerprinted (a connection's cached memberships). */
const mapTexts = new WeakMap<object, string>();

/** `value` as JSON with sets, map entries and object keys sorted and dates as ISO strings. */
function canonical(value: unknown): string {
  if (value === undefined) return "u";
  if (value === null || typeof value !== "object") return JSON.stringify(value);
  if (value instanceof Date) return JSON.stringify(value.toISOString());
  const known = mapTexts.get(value);
  if (known !== undefined) return known;
  let text: string;
  if (value instanceof Map) {
    text = `M[${[...value]
      .map(([k, v]) => `${JSON.stringify(String(k))}:${canonical(v)}`)
      .sort()
      .join(",")}]`;
    mapTexts.set(value, text);
  } else if (value instanceof Set) text = `S[${[...value].map(canonical).sort().join(",")}]`;
  else if (Array.isArray(value)) text = `[${value.map(canonical).join(",")}]`;
  else {
    const record = value as Record<string, unknown>;
    text = `{${Object.keys(record)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical(record[k])}`)
      .join(",")}}`;
  }
  return text;
}
