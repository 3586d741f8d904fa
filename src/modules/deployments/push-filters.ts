/**
 * Whether a git push deploys (spec "Deploy trigger"): auto-deploy on, a branch (not a tag) matching the
 * filter (exact name or glob; default the source branch), at least one added/modified/removed file matching the
 * watch paths (picomatch globs, `!` excludes; empty = every change), and no skip marker in the head commit
 * message. Each refusal has a reason a person understands.
 */
import picomatch from "picomatch";

/** A push as both providers describe it (fields normalised from GitHub's and GitLab's payloads). */
export interface PushEvent {
  /** `refs/heads/<branch>` or `refs/tags/<tag>`. */
  ref: string;
  /** Head commit SHA (`after`); null when unknown or a deletion. */
  sha: string | null;
  /** Head commit message. */
  message: string;
  /** Every added, modified and removed path of the pushed commits. */
  changedFiles: string[];
}

/** Settings the filters read. */
export interface PushFilterSettings {
  autoDeploy: boolean;
  branchFilter: string | null;
  watchPaths: string[];
  /** The application's source branch (default filter). */
  sourceBranch: string;
}

/** Commit message markers that skip a deployment (case-insensitive). */
export const SKIP_MARKERS = ["[skip ci]", "[ci skip]", "[no ci]", "[skip deploy]"];

/** The verdict: deploy, or not and why. */
export type PushVerdict = { deploy: true; branch: string } | { deploy: false; reason: string };

/** Decides whether `push` deploys under `settings` (see the file comment). */
export function evaluatePush(push: PushEvent, settings: PushFilterSettings): PushVerdict {
  if (!settings.autoDeploy) return { deploy: false, reason: "auto-deploy is off" };
  if (push.ref.startsWith("refs/tags/")) {
    return { deploy: false, reason: `tag pushes do not deploy (pushed tag "${push.ref.slice(10)}")` };
  }
  if (!push.ref.startsWith("refs/heads/")) return { deploy: false, reason: `"${push.ref}" is not a branch` };
  if (push.sha === null || /^0+$/.test(push.sha)) return { deploy: false, reason: "the branch was deleted" };
  const branch = push.ref.slice(11);
  const filter = settings.branchFilter ?? settings.sourceBranch;
  if (branch !== filter && !picomatch.isMatch(branch, filter)) {
    return { deploy: false, reason: `branch "${branch}" does not match "${filter}"` };
  }
  if (settings.watchPaths.length > 0) {
    const include = settings.watchPaths.filter((p) => !p.startsWith("!"));
    const exclude = settings.watchPaths.filter((p) => p.startsWith("!")).map((p) => p.slice(1));
    const included = picomatch(include.length ? include : ["**"], { dot: true });
    const excluded = exclude.length ? picomatch(exclude, { dot: true }) : () => false;
    if (!push.changedFiles.some((f) => included(f) && !excluded(f))) {
      return { deploy: false, reason: "no changed file matches watch paths" };
    }
  }
  const lower = push.message.toLowerCase();
  const marker = SKIP_MARKERS.find((m) => lower.includes(m));
  if (marker) return { deploy: false, reason: `the head commit message contains ${marker}` };
  return { deploy: true, branch };
}

type Json = Record<string, unknown>;

/** Changed files of a payload's `commits` (GitHub and GitLab use the same three arrays). */
function changedFiles(commits: unknown): string[] {
  const files = new Set<string>();
  for (const c of Array.isArray(commits) ? (commits as Json[]) : []) {
    for (const key of ["added", "modified", "removed"]) {
      for (const f of Array.isArray(c[key]) ? (c[key] as unknown[]) : []) if (typeof f === "string") files.add(f);
    }
  }
  return [...files];
}

/** A GitHub `push` payload as a {@link PushEvent}; null when it is not one. */
export function githubPush(body: unknown): PushEvent | null {
  const b = body as Json | null;
  if (!b || typeof b.ref !== "string") return null;
  const head = (b.head_commit ?? null) as Json | null;
  return {
    ref: b.ref,
    sha: typeof b.after === "string" ? b.after : null,
    message: typeof head?.message === "string" ? head.message : "",
    changedFiles: changedFiles(b.commits),
  };
}

/** A GitLab `Push Hook` / `Tag Push Hook` payload as a {@link PushEvent}; null when it is not one. */
export function gitlabPush(body: unknown): PushEvent | null {
  const b = body as Json | null;
  if (!b || typeof b.ref !== "string") return null;
  const commits = Array.isArray(b.commits) ? (b.commits as Json[]) : [];
  const sha = typeof b.checkout_sha === "string" ? b.checkout_sha : typeof b.after === "string" ? b.after : null;
  const head = commits.find((c) => c.id === sha) ?? commits.at(-1);
  return {
    ref: b.ref,
    sha,
    message: typeof head?.message === "string" ? head.message : "",
    changedFiles: changedFiles(commits),
  };
}
