/**
 * Changing an application's source type in its Settings (`updateApplication` with a whole new `source`, checked with a
 * site import's rules and prerequisites): Docker image, a git clone URL, or a GitHub / GitLab repository through a
 * git provider configured in the organization. Refused fields (`fieldErrors` under `source.*`) show under their
 * input. The new source applies with the next deployment.
 */
import { useId, useState } from "react";
import type { SiteImportSourceInput, SourceType } from "../../gql/graphql.ts";
import { useClearFeedback, useNotice } from "../../shared/feedback.tsx";
import { Field, Message } from "../../shared/form.tsx";
import { useAction } from "../../shared/use-action.ts";
import { type ApplicationManageFields, UPDATE_APPLICATION } from "./manage-operations.ts";

/** The `source` input of the form's values for `type`. */
function sourceOf(type: SourceType, data: FormData): SiteImportSourceInput {
  const value = (name: string) => String(data.get(name) ?? "").trim() || undefined;
  if (type === "docker") return { type, dockerImage: value("dockerImage") };
  const branch = value("branch");
  if (type === "git") return { type, customGitUrl: value("customGitUrl"), branch };
  const provider = value("providerId");
  return {
    type,
    repo: value("repo"),
    branch,
    ...(type === "github" ? { githubId: provider } : { gitlabId: provider }),
  };
}

/** The fields of the form, as the refusals name them (each shown under its field). */
const SOURCE_FIELDS = [
  "source.dockerImage",
  "source.customGitUrl",
  "source.repo",
  "source.githubId",
  "source.gitlabId",
  "source.branch",
];

/** The "Change source" form of `app` (owners and admins). */
export function SourceChange({ app }: { app: ApplicationManageFields }) {
  const [type, setType] = useState<SourceType>(app.sourceType ?? "docker");
  // Another tab (or a re-read) changed the source type: the form offers the current one again.
  const [seenType, setSeenType] = useState(app.sourceType);
  if (seenType !== app.sourceType) {
    setSeenType(app.sourceType);
    setType(app.sourceType ?? "docker");
  }
  const [notice, setNotice] = useNotice();
  const update = useAction(UPDATE_APPLICATION, undefined, SOURCE_FIELDS);
  const clear = useClearFeedback();
  const typeId = useId();
  const errorOf = (k: string) => update.fields[`source.${k}`]?.join(", ");
  return (
    <form
      aria-label="Change source"
      onChange={clear}
      onSubmit={async (e) => {
        e.preventDefault();
        setNotice(null);
        const formEl = e.currentTarget;
        const r = await update.exec({ id: app.id, input: { source: sourceOf(type, new FormData(formEl)) } });
        if (r.data) {
          formEl.reset();
          setNotice(`Source changed to ${r.data.updateApplication.sourceType}. It applies with the next deployment.`);
        }
      }}
    >
      <h3>Change source</h3>
      <div className="field">
        <label htmlFor={typeId}>Source type</label>
        <select id={typeId} value={type} onChange={(e) => setType(e.target.value as SourceType)}>
          <option value="docker">Docker image</option>
          <option value="git">Git clone URL</option>
          <option value="github">GitHub repository</option>
          <option value="gitlab">GitLab repository</option>
        </select>
      </div>
      {type === "docker" && (
        <Field
          label="New image"
          name="dockerImage"
          required
          className="mono"
          placeholder="nginx:1.27"
          error={errorOf("dockerImage")}
        />
      )}
      {type === "git" && (
        <Field
          label="Clone URL"
          name="customGitUrl"
          required
          className="mono"
          placeholder="https://git.example.com/acme/shop.git"
          error={errorOf("customGitUrl")}
        />
      )}
      {(type === "github" || type === "gitlab") && (
        <>
          <Field
            label="Repository"
            name="repo"
            required
            className="mono"
            placeholder="acme/shop"
            error={errorOf("repo")}
          />
          <Field
            label="Git provider id"
            name="providerId"
            required
            className="mono"
            placeholder="gitp_…"
            error={errorOf(type === "github" ? "githubId" : "gitlabId")}
            hint="A provider configured in the organization"
          />
        </>
      )}
      {type !== "docker" && (
        <Field label="Source branch" name="branch" className="mono" placeholder="main" error={errorOf("branch")} />
      )}
      <button type="submit" disabled={update.state.fetching}>
        Change source
      </button>
      <Message kind="error">{update.error}</Message>
      {notice && <Message kind="success">{notice}</Message>}
    </form>
  );
}
