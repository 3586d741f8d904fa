/**
 * Whether a git push deploys (spec "Deploy trigger"; src/modules/deployments/push-filters.ts): auto-deploy, branch
 * filter (exact or glob, default the source branch), watch paths with `!` excludes, skip markers; and the GitHub and
 * GitLab payloads read into one push.
 */
import { describe, expect, it } from "vitest";
import {
  evaluatePush,
  githubPush,
  gitlabPush,
  type PushEvent,
  type PushFilterSettings,
} from "../../src/modules/deployments/push-filters.ts";

const push: PushEvent = {
  ref: "refs/heads/main",
  sha: "abc123",
  message: "Fix the header",
  changedFiles: ["src/a.ts"],
};
const settings: PushFilterSettings = { autoDeploy: true, branchFilter: null, watchPaths: [], sourceBranch: "main" };

describe("evaluatePush", () => {
  it("deploys a push to the source branch", () => {
    expect(evaluatePush(push, settings)).toEqual({ deploy: true, branch: "main" });
  });

  it("gives the reason of each refusal", () => {
    expect(evaluatePush(push, { ...settings, autoDeploy: false })).toEqual({
      deploy: false,
      reason: "auto-deploy is off",
    });
    expect(evaluatePush({ ...push, ref: "refs/tags/v1.0" }, settings)).toEqual({
      deploy: false,
      reason: 'tag pushes do not deploy (pushed tag "v1.0")',
    });
    expect(evaluatePush({ ...push, ref: "HEAD" }, settings)).toEqual({
      deploy: false,
      reason: '"HEAD" is not a branch',
    });
    expect(evaluatePush({ ...push, sha: "0000000" }, settings)).toEqual({
      deploy: false,
      reason: "the branch was deleted",
    });
    expect(evaluatePush({ ...push, ref: "refs/heads/dev" }, settings)).toEqual({
      deploy: false,
      reason: 'branch "dev" does not match "main"',
    });
    expect(evaluatePush({ ...push, message: "Docs [Skip CI]" }, settings)).toEqual({
      deploy: false,
      reason: "the head commit message contains [skip ci]",
    });
  });

  it("matches the branch filter exactly or as a glob", () => {
    const release = { ...push, ref: "refs/heads/release/1.2" };
    expect(evaluatePush(release, { ...settings, branchFilter: "release/*" })).toEqual({
      deploy: true,
      branch: "release/1.2",
    });
    expect(evaluatePush(release, { ...settings, branchFilter: "release/1.2" }).deploy).toBe(true);
    expect(evaluatePush(push, { ...settings, branchFilter: "release/*" }).deploy).toBe(false);
  });

  it("deploys only when a changed file matches the watch paths and no exclude", () => {
    const watched = { ...settings, watchPaths: ["src/**", "!src/**/*.md"] };
    expect(evaluatePush({ ...push, changedFiles: ["src/app/main.ts"] }, watched).deploy).toBe(true);
    expect(evaluatePush({ ...push, changedFiles: ["src/.config"] }, watched).deploy).toBe(true);
    expect(evaluatePush({ ...push, changedFiles: ["src/README.md", "docs/a.ts"] }, watched)).toEqual({
      deploy: false,
      reason: "no changed file matches watch paths",
    });
    const excludesOnly = { ...settings, watchPaths: ["!docs/**"] };
    expect(evaluatePush({ ...push, changedFiles: ["docs/a.md"] }, excludesOnly).deploy).toBe(false);
    expect(evaluatePush({ ...push, changedFiles: ["docs/a.md", "app.ts"] }, excludesOnly).deploy).toBe(true);
  });
});

describe("push payloads", () => {
  const commits = [
    { id: "c1", message: "first", added: ["a.ts"], modified: [], removed: ["b.ts"] },
    { id: "c2", message: "second", added: [], modified: ["a.ts", "c.ts"], removed: [] },
  ];

  it("reads a GitHub push: ref, after, the head commit's message, every changed file once", () => {
    const body = { ref: "refs/heads/main", after: "c2", head_commit: { message: "second" }, commits };
    expect(githubPush(body)).toEqual({
      ref: "refs/heads/main",
      sha: "c2",
      message: "second",
      changedFiles: ["a.ts", "b.ts", "c.ts"],
    });
    expect(githubPush({ zen: "ping" })).toBeNull();
    expect(githubPush(null)).toBeNull();
  });

  it("reads a GitLab push: checkout_sha's commit message, else the last commit's", () => {
    expect(gitlabPush({ ref: "refs/heads/main", checkout_sha: "c1", commits })).toEqual({
      ref: "refs/heads/main",
      sha: "c1",
      message: "first",
      changedFiles: ["a.ts", "b.ts", "c.ts"],
    });
    expect(gitlabPush({ ref: "refs/heads/main", after: "zz", commits })?.message).toBe("second");
    expect(gitlabPush({ object_kind: "push" })).toBeNull();
  });
});
