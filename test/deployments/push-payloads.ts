/**
 * Push payloads in the shape GitHub (`push` event) and GitLab (`Push Hook`) document them: ref, before/after,
 * commits with added/modified/removed paths, head commit, repository and pusher (fields the filters ignore
 * included, so the raw bodies are realistic).
 */
import { createHmac } from "node:crypto";

/** Options of a push. */
export interface PushOptions {
  ref?: string;
  after?: string;
  message?: string;
  added?: string[];
  modified?: string[];
  removed?: string[];
}

const SHA = "0d1a26e67d8f5eaf1f6ba5c57fc3c7d91ac0fd1c";

/** A GitHub `push` payload (https://docs.github.com/webhooks/webhook-events-and-payloads#push). */
export function githubPushPayload(o: PushOptions = {}) {
  const after = o.after ?? SHA;
  const commit = {
    id: after,
    tree_id: "f9d2a07e9488b91af2641b26b9407fe22a451433",
    distinct: true,
    message: o.message ?? "Update README.md",
    timestamp: "2026-11-22T15:20:41Z",
    url: `https://github.com/Codertocat/Hello-World/commit/${after}`,
    author: { name: "Codertocat", email: "21031067+Codertocat@users.noreply.github.com", username: "Codertocat" },
    committer: { name: "GitHub", email: "noreply@github.com", username: "web-flow" },
    added: o.added ?? [],
    removed: o.removed ?? [],
    modified: o.modified ?? ["README.md"],
  };
  return {
    ref: o.ref ?? "refs/heads/main",
    before: "6113728f27ae82c7b1a177c8d03f9e96e0adf246",
    after,
    created: false,
    deleted: false,
    forced: false,
    base_ref: null,
    compare: `https://github.com/Codertocat/Hello-World/compare/6113728f27ae...${after.slice(0, 12)}`,
    commits: [commit],
    head_commit: commit,
    repository: {
      id: 186853002,
      name: "Hello-World",
      full_name: "Codertocat/Hello-World",
      private: false,
      default_branch: "main",
      clone_url: "https://github.com/Codertocat/Hello-World.git",
    },
    pusher: { name: "Codertocat", email: "21031067+Codertocat@users.noreply.github.com" },
    sender: { login: "Codertocat", id: 21031067, type: "User", site_admin: false },
  };
}

/** A GitLab `Push Hook` payload (https://docs.gitlab.com/user/project/integrations/webhook_events/#push-events). */
export function gitlabPushPayload(o: PushOptions = {}) {
  const after = o.after ?? SHA;
  return {
    object_kind: o.ref?.startsWith("refs/tags/") ? "tag_push" : "push",
    event_name: o.ref?.startsWith("refs/tags/") ? "tag_push" : "push",
    before: "95790bf891e76fee5e1747ab589903a6a1f80f22",
    after,
    ref: o.ref ?? "refs/heads/main",
    ref_protected: true,
    checkout_sha: after,
    user_id: 4,
    user_name: "John Smith",
    user_username: "jsmith",
    project_id: 15,
    project: { id: 15, name: "Diaspora", path_with_namespace: "mike/diaspora", default_branch: "main" },
    commits: [
      {
        id: after,
        message: o.message ?? "fixed readme",
        title: (o.message ?? "fixed readme").split("\n")[0],
        timestamp: "2026-11-22T15:20:41+00:00",
        url: `http://example.com/mike/diaspora/commit/${after}`,
        author: { name: "GitLab dev user", email: "gitlabdev@dv6700.(none)" },
        added: o.added ?? [],
        modified: o.modified ?? ["README.md"],
        removed: o.removed ?? [],
      },
    ],
    total_commits_count: 1,
    repository: {
      name: "Diaspora",
      url: "git@example.com:mike/diaspora.git",
      homepage: "http://example.com/mike/diaspora",
    },
  };
}

/** `sha256=` + hex HMAC-SHA256 of `body` with `secret` (GitHub's X-Hub-Signature-256). */
export function hubSignature(secret: string, body: string | Buffer): string {
  return `sha256=${createHmac("sha256", secret).update(body).digest("hex")}`;
}
