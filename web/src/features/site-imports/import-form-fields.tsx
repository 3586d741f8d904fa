/** The fieldsets of the import form, each showing part of the form's state and changing it through `set`. */
import { useId } from "react";
import { Field } from "../../shared/form.tsx";
import type { FormState, SetField, SourceType } from "./import-form-state.ts";

/** A refused path's messages (`fieldErrors`, e.g. `source.dockerImage`) for the field showing it, or undefined. */
type FieldErrors = Record<string, string[]>;
const said = (errors: FieldErrors, path: string) => errors[path]?.join(", ");

/** A labelled `<select>`. */
function Select({
  label,
  value,
  onChange,
  options,
}: {
  label: string;
  value: string;
  onChange: (v: string) => void;
  options: { value: string; label: string }[];
}) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <select id={id} value={value} onChange={(e) => onChange(e.target.value)}>
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </div>
  );
}

/**
 * Source type and the fields it needs: a Docker image, a GitHub/GitLab repository with its provider, or a git URL
 * with an SSH key; branch, build path and build type for the git sources.
 */
export function SourceFieldset({
  f,
  set,
  providers,
  sshKeys,
  errors,
  onSourceType,
}: {
  f: FormState;
  set: SetField;
  /** The organization's git providers of the chosen source type. */
  providers: readonly { id: string; name: string }[];
  sshKeys: readonly { id: string; name: string }[];
  /** The last refusal's field errors (`fieldErrorsOf`): `source.*` messages go under their fields. */
  errors: FieldErrors;
  /** A new source type (the caller also clears the chosen provider). */
  onSourceType: (type: SourceType) => void;
}) {
  return (
    <fieldset>
      <legend>Source</legend>
      <Select
        label="Source type"
        value={f.sourceType}
        onChange={(v) => onSourceType(v as SourceType)}
        options={[
          { value: "docker", label: "Docker image" },
          { value: "github", label: "GitHub repository" },
          { value: "gitlab", label: "GitLab repository" },
          { value: "git", label: "Git URL" },
        ]}
      />
      {f.sourceType === "docker" && (
        <Field
          label="Docker image"
          value={f.dockerImage}
          onChange={(e) => set("dockerImage", e.target.value)}
          placeholder="nginx:1.27"
          required
          error={said(errors, "source.dockerImage")}
        />
      )}
      {(f.sourceType === "github" || f.sourceType === "gitlab") && (
        <>
          <Field
            label="Repository"
            value={f.repo}
            onChange={(e) => set("repo", e.target.value)}
            placeholder="owner/name"
            required
            error={said(errors, "source.repo")}
          />
          <Select
            label={f.sourceType === "github" ? "GitHub provider" : "GitLab provider"}
            value={f.providerId}
            onChange={(v) => set("providerId", v)}
            options={[
              { value: "", label: providers.length ? "Choose…" : "None configured" },
              ...providers.map((p) => ({ value: p.id, label: p.name })),
            ]}
          />
        </>
      )}
      {f.sourceType === "git" && (
        <>
          <Field
            label="Clone URL"
            value={f.customGitUrl}
            onChange={(e) => set("customGitUrl", e.target.value)}
            placeholder="git@example.com:team/site.git"
            required
            error={said(errors, "source.customGitUrl")}
          />
          <Select
            label="SSH key (private repositories)"
            value={f.sshKeyId}
            onChange={(v) => set("sshKeyId", v)}
            options={[{ value: "", label: "None" }, ...sshKeys.map((k) => ({ value: k.id, label: k.name }))]}
          />
        </>
      )}
      {f.sourceType !== "docker" && (
        <>
          <Field
            label="Branch"
            value={f.branch}
            onChange={(e) => set("branch", e.target.value)}
            placeholder="main"
            error={said(errors, "source.branch")}
          />
          <Field
            label="Build path"
            value={f.buildPath}
            onChange={(e) => set("buildPath", e.target.value)}
            placeholder="/"
            error={said(errors, "source.buildPath")}
          />
          <Select
            label="Build type"
            value={f.buildType}
            onChange={(v) => set("buildType", v as FormState["buildType"])}
            options={[
              { value: "", label: "Default (dockerfile)" },
              { value: "dockerfile", label: "Dockerfile" },
              { value: "nixpacks", label: "Nixpacks" },
            ]}
          />
        </>
      )}
    </fieldset>
  );
}

/** The optional database: type, name, user and password. */
export function DatabaseFieldset({ f, set }: { f: FormState; set: SetField }) {
  return (
    <fieldset>
      <legend>Database</legend>
      <label className="check">
        <input type="checkbox" checked={f.withDatabase} onChange={(e) => set("withDatabase", e.target.checked)} />{" "}
        Create a database
      </label>
      {f.withDatabase && (
        <>
          <Select
            label="Database type"
            value={f.dbType}
            onChange={(v) => set("dbType", v as FormState["dbType"])}
            options={["postgres", "mysql", "mariadb", "mongodb"].map((t) => ({ value: t, label: t }))}
          />
          <Field label="Database name" value={f.dbName} onChange={(e) => set("dbName", e.target.value)} required />
          <Field label="Database user" value={f.dbUser} onChange={(e) => set("dbUser", e.target.value)} required />
          <Field
            label="Database password"
            type="password"
            autoComplete="new-password"
            value={f.dbPassword}
            onChange={(e) => set("dbPassword", e.target.value)}
            required
          />
        </>
      )}
    </fieldset>
  );
}

/** Environment variables as key/value rows, added and removed. */
export function EnvVarsFieldset({ f, set }: { f: FormState; set: SetField }) {
  return (
    <fieldset>
      <legend>Environment variables</legend>
      {f.envVars.map((row, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: rows have no identity besides their position
        <div className="row" key={i}>
          <Field
            label={`Variable ${i + 1} name`}
            value={row.key}
            onChange={(e) =>
              set(
                "envVars",
                f.envVars.map((r, j) => (j === i ? { ...r, key: e.target.value } : r)),
              )
            }
          />
          <Field
            label={`Variable ${i + 1} value`}
            value={row.value}
            onChange={(e) =>
              set(
                "envVars",
                f.envVars.map((r, j) => (j === i ? { ...r, value: e.target.value } : r)),
              )
            }
          />
          <button
            type="button"
            onClick={() =>
              set(
                "envVars",
                f.envVars.filter((_, j) => j !== i),
              )
            }
            aria-label={`Remove variable ${i + 1}`}
          >
            Remove
          </button>
        </div>
      ))}
      <button type="button" onClick={() => set("envVars", [...f.envVars, { key: "", value: "" }])}>
        Add variable
      </button>
    </fieldset>
  );
}

/** Domain and port; `errors`: the last refusal's field errors (`domain`, `port` go under their fields). */
export function RoutingFieldset({ f, set, errors }: { f: FormState; set: SetField; errors: FieldErrors }) {
  return (
    <fieldset>
      <legend>Routing</legend>
      <Field
        label="Domain"
        value={f.domain}
        onChange={(e) => set("domain", e.target.value)}
        placeholder="shop.example.com"
        hint="Optional; HTTPS is requested."
        error={said(errors, "domain")}
      />
      <Field
        label="Port"
        type="number"
        min={1}
        max={65535}
        value={f.port}
        onChange={(e) => set("port", e.target.value)}
        placeholder="80"
        error={said(errors, "port")}
      />
    </fieldset>
  );
}
