/**
 * The input rules of an application, one implementation for the site import request (spec: "Import request")
 * and the management mutations (createApplication, updateApplication, addDomain, the variable mutations): its
 * source, container port, health check path, domain host and variable names and values. Errors are zod issues,
 * turned into BAD_USER_INPUT with `fieldErrors` by `parseInput` (src/shared/validate.ts).
 */
import { parse as parseHost } from "tldts";
import { z } from "zod";
import { optional, requiredOr, text } from "../../shared/input-fields.ts";

/**
 * Suffixes the Public Suffix List holds that public DNS does not route to a web server: `.arpa` (infrastructure; its
 * `home.arpa` is private use, RFC 8375) and `.onion` (Tor, RFC 7686).
 */
const SPECIAL_USE = /(^|\.)(arpa|onion)$/;

/** Top-level names reserved for testing and documentation (RFC 2606, RFC 6761), allowed though no public DNS has them. */
const TESTING_TLDS = new Set(["test", "example"]);

/**
 * Whether `host` is a name public DNS can answer for an ingress: under a public suffix of ICANN's section of the
 * Public Suffix List (`shop.example.com`, `shop.example.co.uk`; not a suffix alone such as `co.uk`), or under a
 * top-level name reserved for testing ({@link TESTING_TLDS}). Refused: loopback (`localhost`), multicast DNS
 * (`.local`), private use (`.internal`, `.lan`, `home.arpa`), a cluster's own names (`api.default`,
 * `x.svc.cluster.local`) and the {@link SPECIAL_USE} suffixes.
 */
function isPublicHost(host: string): boolean {
  const { domain, isIcann, publicSuffix } = parseHost(host, { allowPrivateDomains: false });
  if (publicSuffix && TESTING_TLDS.has(publicSuffix)) return true;
  if (publicSuffix && SPECIAL_USE.test(publicSuffix)) return false;
  return isIcann === true && domain !== null;
}

/**
 * A public DNS host name, lower-cased, without a trailing dot, e.g. `shop.example.com`: labels of letters, digits and
 * `-`, a top-level label that is not all digits (an IPv4 address is not a host name: an ingress routes by name), and
 * a name public DNS can answer for ({@link isPublicHost}).
 */
export const hostnameSchema = text(253)
  .transform((v) => v.toLowerCase().replace(/\.$/, ""))
  .pipe(
    z
      .string()
      .regex(
        /^(?!-)[a-z0-9-]{1,63}(?<!-)(\.(?!-)[a-z0-9-]{1,63}(?<!-))+$/,
        "Must be a host name such as shop.example.com (no scheme, port or path)",
      )
      .refine((v) => !/\.\d+$/.test(v), "Must be a host name, not an IP address")
      .refine(
        isPublicHost,
        "Must be a public host name under a public top-level domain (not localhost, .local, .internal or a cluster name)",
      ),
  );

const SOURCE_TYPES = ["github", "gitlab", "docker", "git"] as const;
/** `a`, `a or b`, `a, b or c`. */
const listed = (items: readonly string[]) =>
  items.length > 1 ? `${items.slice(0, -1).join(", ")} or ${items.at(-1)}` : (items[0] ?? "");
/** Sources built from a repository (`branch` and `buildPath` apply to them; a docker source is deployed as is). */
const BUILDING_SOURCES: ReadonlyArray<(typeof SOURCE_TYPES)[number]> = ["github", "gitlab", "git"];

/**
 * `owner/name` (spec: import request `source.repo`); GitLab's subgroups add segments (`group/sub/name`, checked with
 * the type). No segment is `.` or `..`: the path names a repository, never a step out of one.
 */
const repo = text(200).regex(/^(?!\.\.?(\/|$))[\w.-]+(\/(?!\.\.?(\/|$))[\w.-]+)+$/, "Must be owner/name");

/** One label of a registry host name: letters, digits and `-`, not at either end. */
const HOST_LABEL = "[a-zA-Z0-9](?:[a-zA-Z0-9-]*[a-zA-Z0-9])?";
/**
 * The registry of an image reference, its first component when that is `localhost`, a dotted host name or a name
 * with a port (`registry:5000`); any other first component is a repository path component (`library/nginx`).
 */
const IMAGE_REGISTRY = String.raw`(?:localhost|${HOST_LABEL}(?:\.${HOST_LABEL})+)(?::[0-9]+)?|${HOST_LABEL}:[0-9]+`;
/** One path component of an image repository: lowercase letters and digits, joined by `.`, `_`, `__` or dashes. */
const IMAGE_PATH_COMPONENT = "[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*";

/**
 * An image reference in the distribution grammar (github.com/distribution/reference): an optional registry
 * ({@link IMAGE_REGISTRY}), lowercase path components, an optional tag (a word character, then at most 127 word
 * characters, `.` or `-`) and an optional digest (`sha256:` and 64 lowercase hex digits, or `sha512:` and 128).
 */
const IMAGE_REFERENCE = new RegExp(
  `^(?:(?:${IMAGE_REGISTRY})/)?${IMAGE_PATH_COMPONENT}(?:/${IMAGE_PATH_COMPONENT})*` +
    String.raw`(?::\w[\w.-]{0,127})?(?:@(?:sha256:[0-9a-f]{64}|sha512:[0-9a-f]{128}))?$`,
);

const cloneUrl = text(2000)
  .refine(
    (v) => /^https:\/\/[^\s/]+\/\S+$/.test(v) || /^ssh:\/\/\S+$/.test(v) || /^[\w.-]+@[\w.-]+:[\w./~-]+$/.test(v),
    "Must be an HTTPS (https://host/path) or SSH (git@host:path or ssh://...) clone URL",
  )
  .refine(
    // A password or token inside the URL would be stored and shown in plain text. Private repositories use an
    // SSH key (customGitSSHKeyId) or a git provider (github/gitlab sources) instead.
    (v) => !/^(https|ssh):\/\/[^/]*:[^/]*@/i.test(v) && !/^https:\/\/[^/]*@/i.test(v),
    "Must not contain credentials: use an SSH key (customGitSSHKeyId) or a git provider for private repositories",
  );

/**
 * An application's source (spec: import request `source`), normalised: sources that build (not docker) get
 * `branch` `main` and `buildPath` `/` by default; `buildType` defaults to `dockerfile`. Fields of another source
 * type (e.g. `branch` or `buildPath` on a docker source) are refused, each under its own path.
 */
export const sourceSchema = z
  .strictObject(
    {
      type: z.enum(SOURCE_TYPES, requiredOr("one of github, gitlab, docker, git")),
      repo: optional(repo),
      branch: optional(text(255).regex(/^(?!-)(?!.*\.\.)[\w./-]+$/, "Must be a branch name")),
      buildPath: optional(
        text(500).regex(
          /^\/(?!.*(^|\/)\.\.(\/|$))[\w./-]*$/,
          "Must be an absolute path inside the repository, e.g. /app",
        ),
      ),
      buildType: optional(z.enum(["dockerfile", "nixpacks"], requiredOr("dockerfile or nixpacks"))),
      dockerImage: optional(
        text(255).regex(
          IMAGE_REFERENCE,
          "Must be an image reference such as nginx:1.27 ([registry/]lowercase/path[:tag][@sha256:<64 hex digits>], a tag of at most 128 characters)",
        ),
      ),
      githubId: optional(text(100)),
      gitlabId: optional(text(100)),
      customGitUrl: optional(cloneUrl),
      customGitSSHKeyId: optional(text(100)),
    },
    requiredOr("an object"),
  )
  .superRefine((s, ctx) => {
    /** `field` belongs to `types` only (refused on another type); when `required`, it must be given for them. */
    const usedBy = (field: keyof typeof s, types: readonly string[], required: boolean) => {
      const given = s[field] !== undefined;
      if (!types.includes(s.type)) {
        if (given) ctx.addIssue({ code: "custom", path: [field], message: `Only used by ${listed(types)} sources` });
      } else if (required && !given) {
        ctx.addIssue({ code: "custom", path: [field], message: `Required for ${s.type} sources` });
      }
    };
    usedBy("repo", ["github", "gitlab"], true);
    if (s.type === "github" && s.repo !== undefined && s.repo.split("/").length > 2) {
      ctx.addIssue({ code: "custom", path: ["repo"], message: "Must be owner/name (subgroups are GitLab's alone)" });
    }
    usedBy("githubId", ["github"], true);
    usedBy("gitlabId", ["gitlab"], true);
    usedBy("dockerImage", ["docker"], true);
    usedBy("customGitUrl", ["git"], true);
    usedBy("customGitSSHKeyId", ["git"], false);
    usedBy("branch", BUILDING_SOURCES, false);
    usedBy("buildPath", BUILDING_SOURCES, false);
  })
  .transform((s) => {
    const builds = BUILDING_SOURCES.includes(s.type);
    return {
      ...s,
      branch: builds ? (s.branch ?? "main") : undefined,
      buildPath: builds ? (s.buildPath ?? "/") : undefined,
      buildType: s.buildType ?? ("dockerfile" as const),
    };
  });

/** A validated, normalised source (see {@link sourceSchema}). */
export type SourceInput = z.output<typeof sourceSchema>;

/** A container port: an integer 1 to 65535. */
export const portSchema = z
  .number(requiredOr("an integer"))
  .int("Must be an integer")
  .min(1, "Must be 1 to 65535")
  .max(65535, "Must be 1 to 65535");

/** Longest health check path accepted (characters). */
const MAX_HEALTH_PATH = 2048;

/** A health check path: starts with `/`, at most 2048 characters, no spaces, control characters or `#`. */
export const healthPathSchema = z
  .string(requiredOr("a string"))
  .max(MAX_HEALTH_PATH, `At most ${MAX_HEALTH_PATH} characters`)
  .regex(/^\//, 'Must start with "/"')
  .regex(/^[^\s\p{Cc}#]*$/u, "No spaces, control characters or fragment (#)");

/** Names of environment variables: letters, digits and `_`, not starting with a digit. */
export const ENV_KEY = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** Longest variable name (characters): Kubernetes caps a Secret's data keys, which carry the variables, at 253. */
export const MAX_ENV_KEY = 253;
/** Longest variable value (characters). */
export const MAX_ENV_VALUE = 32_768;
/** Most variables one application (and one import request) holds, a database's automatic variables included. */
export const MAX_ENV_VARS = 200;

/**
 * The refusal of a change taking an application from `before` to `after` variables, or null when it is allowed:
 * past {@link MAX_ENV_VARS} only while it raises the count. A change that does not (an unset, a replaced value) is
 * always allowed, so an application holding more than the limit can still be changed and brought under it.
 */
export function variableLimitProblem(before: number, after: number): string | null {
  return after > MAX_ENV_VARS && after > before
    ? `At most ${MAX_ENV_VARS} variables per application (this change makes ${after})`
    : null;
}

/**
 * Most bytes an application's variables take together: names and values in UTF-8, as Kubernetes counts the Secret
 * `<app>-env` that carries them to the container (at most 1 MiB, 1,048,576 bytes). The 48,576 bytes left are a
 * margin for what a render or a rotation changes (a database host moved to its namespace, a longer password).
 */
export const MAX_ENV_BYTES = 1_000_000;

/** Bytes `vars` (name, value) take in the application's Secret: names and values in UTF-8. */
export function variablesBytes(vars: Iterable<readonly [string, string]>): number {
  let total = 0;
  for (const [key, value] of vars) total += Buffer.byteLength(key) + Buffer.byteLength(value);
  return total;
}

/**
 * The refusal of a change taking an application's variables from `before` to `after` bytes ({@link
 * variablesBytes}), or null when it is allowed: past {@link MAX_ENV_BYTES} only while it grows them, so an
 * application past the limit can still be brought under it.
 */
export function variableSizeProblem(before: number, after: number): string | null {
  return after > MAX_ENV_BYTES && after > before
    ? `Variables take at most ${MAX_ENV_BYTES} bytes per application, names and values in UTF-8 (this change makes ${after}): they travel in one Kubernetes Secret, which holds at most 1 MiB`
    : null;
}

/** The message of an invalid variable name. */
export const INVALID_ENV_KEY = `Invalid variable name: letters, digits and _, not starting with a digit, at most ${MAX_ENV_KEY} characters (the Kubernetes limit of a Secret key)`;

/** A variable name (see {@link ENV_KEY}), at most {@link MAX_ENV_KEY} characters. */
export const envKeySchema = z
  .string(requiredOr("a string"))
  .max(MAX_ENV_KEY, INVALID_ENV_KEY)
  .regex(ENV_KEY, INVALID_ENV_KEY);

/** The message of a value holding a NUL character. */
const NUL_IN_VALUE = "Must not contain the NUL character (U+0000): a process environment cannot hold it";

/**
 * A variable value: a string of at most 32768 characters without NUL (an environment entry is a C string, so the
 * container could never receive the value); newlines and other characters are kept as given.
 */
export const envValueSchema = z
  .string(requiredOr("a string"))
  .max(MAX_ENV_VALUE, `At most ${MAX_ENV_VALUE} characters`)
  .refine((v) => !v.includes("\u0000"), NUL_IN_VALUE);

/** Variables as an object mapping names to values, at most 200 of them taking at most {@link MAX_ENV_BYTES}. */
export const envVarsSchema = z
  .record(z.string().max(MAX_ENV_KEY).regex(ENV_KEY), envValueSchema, {
    error: (issue) =>
      issue.code === "invalid_key" ? INVALID_ENV_KEY : "Must be an object mapping names to string values",
  })
  .refine((vars) => Object.keys(vars).length <= MAX_ENV_VARS, `At most ${MAX_ENV_VARS} variables`)
  .superRefine((vars, ctx) => {
    const problem = variableSizeProblem(0, variablesBytes(Object.entries(vars)));
    if (problem) ctx.addIssue({ code: "custom", message: problem });
  });
