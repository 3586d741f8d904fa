/**
 * The import form: every field of the import request (schema SiteImportInput). The source type switches the
 * fields shown; database, environment variables (key/value rows), domain and port. **Preview** shows what
 * `previewSiteImport` reports before anything is created; **Import** runs `importSite`.
 */
import { useId, useState } from "react";
import { useClient, useMutation, useQuery } from "urql";
import { describeError } from "../errors.ts";
import type { PreviewSiteImportQuery, SiteImportInput } from "../gql/graphql.ts";
import { IMPORT_PREREQUISITES, IMPORT_SITE, PREVIEW_SITE_IMPORT, type SiteImportRow } from "../operations.ts";
import { Field, Message } from "./form.tsx";

type SourceType = "github" | "gitlab" | "docker" | "git";

interface FormState {
  name: string;
  sourceType: SourceType;
  repo: string;
  branch: string;
  buildPath: string;
  buildType: "" | "dockerfile" | "nixpacks";
  dockerImage: string;
  providerId: string;
  customGitUrl: string;
  sshKeyId: string;
  withDatabase: boolean;
  dbType: "mariadb" | "mysql" | "postgres" | "mongodb";
  dbName: string;
  dbUser: string;
  dbPassword: string;
  envVars: { key: string; value: string }[];
  domain: string;
  port: string;
}

const EMPTY: FormState = {
  name: "",
  sourceType: "docker",
  repo: "",
  branch: "",
  buildPath: "",
  buildType: "",
  dockerImage: "",
  providerId: "",
  customGitUrl: "",
  sshKeyId: "",
  withDatabase: false,
  dbType: "postgres",
  dbName: "",
  dbUser: "",
  dbPassword: "",
  envVars: [],
  domain: "",
  port: "",
};

/** Builds the GraphQL `SiteImportInput` from the form (empty optional fields are left out). */
function toInput(organizationId: string, f: FormState): SiteImportInput {
  const opt = (v: string) => (v.trim() === "" ? undefined : v.trim());
  const source: SiteImportInput["source"] = { type: f.sourceType };
  if (f.sourceType === "docker") source.dockerImage = opt(f.dockerImage);
  else {
    source.branch = opt(f.branch);
    source.buildPath = opt(f.buildPath);
    source.buildType = f.buildType || undefined;
    if (f.sourceType === "git") {
      source.customGitUrl = opt(f.customGitUrl);
      source.customGitSSHKeyId = opt(f.sshKeyId);
    } else {
      source.repo = opt(f.repo);
      if (f.sourceType === "github") source.githubId = opt(f.providerId);
      else source.gitlabId = opt(f.providerId);
    }
  }
  const envVars = Object.fromEntries(f.envVars.filter((v) => v.key.trim() !== "").map((v) => [v.key.trim(), v.value]));
  return {
    organizationId,
    name: f.name,
    source,
    domain: opt(f.domain),
    port: f.port.trim() === "" ? undefined : Number(f.port),
    envVars: Object.keys(envVars).length ? envVars : undefined,
    database: f.withDatabase ? { type: f.dbType, name: f.dbName, user: f.dbUser, password: f.dbPassword } : undefined,
  };
}

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

/** The import form of organization `organizationId`; `onImported` receives the record of a finished run. */
export function ImportForm({
  organizationId,
  onImported,
}: {
  organizationId: string;
  onImported: (record: SiteImportRow) => void;
}) {
  const [f, setF] = useState<FormState>(EMPTY);
  const [preview, setPreview] = useState<PreviewSiteImportQuery["previewSiteImport"] | null>(null);
  // Any change makes the last preview stale: it is dropped.
  const set = <K extends keyof FormState>(key: K, value: FormState[K]) => {
    setPreview(null);
    setF((s) => ({ ...s, [key]: value }));
  };
  const client = useClient();
  const [prereq] = useQuery({
    query: IMPORT_PREREQUISITES,
    variables: { id: organizationId },
  });
  const [error, setError] = useState<string | null>(null);
  const [outcome, setOutcome] = useState<{ kind: "success" | "error"; text: string } | null>(null);
  const [previewing, setPreviewing] = useState(false);
  const [importState, importSite] = useMutation(IMPORT_SITE);
  const providers = (prereq.data?.organization?.gitProviders ?? []).filter((p) => p.type === f.sourceType);
  const sshKeys = prereq.data?.organization?.sshKeys ?? [];

  async function runPreview() {
    setPreviewing(true);
    setError(null);
    setOutcome(null);
    const result = await client
      .query(PREVIEW_SITE_IMPORT, { input: toInput(organizationId, f) }, { requestPolicy: "network-only" })
      .toPromise();
    setPreviewing(false);
    if (result.error) {
      setPreview(null);
      setError(describeError(result.error));
    } else setPreview(result.data?.previewSiteImport ?? null);
  }

  async function runImport() {
    setError(null);
    setPreview(null);
    setOutcome(null);
    const result = await importSite({ input: toInput(organizationId, f) });
    if (result.error || !result.data) return setError(describeError(result.error));
    const r = result.data.importSite;
    onImported(r.siteImport);
    setOutcome(
      r.status === "success"
        ? { kind: "success", text: `Imported "${r.siteImport.name}": a deployment is queued.` }
        : { kind: "error", text: `Import ${r.status} at ${r.errorStep}: ${r.errorMessage}` },
    );
  }

  return (
    <form
      className="card import-form"
      aria-labelledby="import-form-title"
      onSubmit={(e) => {
        e.preventDefault();
        runImport();
      }}
    >
      <h2 id="import-form-title">Import a site</h2>
      <Field
        label="Name"
        value={f.name}
        onChange={(e) => set("name", e.target.value)}
        required
        maxLength={100}
        hint="Project and application name, unique in the organization."
      />
      <fieldset>
        <legend>Source</legend>
        <Select
          label="Source type"
          value={f.sourceType}
          onChange={(v) => {
            setPreview(null);
            setF((s) => ({ ...s, sourceType: v as SourceType, providerId: "" }));
          }}
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
            <Field label="Branch" value={f.branch} onChange={(e) => set("branch", e.target.value)} placeholder="main" />
            <Field
              label="Build path"
              value={f.buildPath}
              onChange={(e) => set("buildPath", e.target.value)}
              placeholder="/"
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
      <fieldset>
        <legend>Routing</legend>
        <Field
          label="Domain"
          value={f.domain}
          onChange={(e) => set("domain", e.target.value)}
          placeholder="shop.example.com"
          hint="Optional; HTTPS is requested."
        />
        <Field
          label="Port"
          type="number"
          min={1}
          max={65535}
          value={f.port}
          onChange={(e) => set("port", e.target.value)}
          placeholder="80"
        />
      </fieldset>
      <Message kind="error">{error}</Message>
      {preview && <PreviewPanel preview={preview} />}
      {outcome && <Message kind={outcome.kind}>{outcome.text}</Message>}
      <div className="actions">
        <button type="button" onClick={runPreview} disabled={previewing}>
          Preview
        </button>
        <button type="submit" className="primary" disabled={importState.fetching}>
          {importState.fetching ? "Importing…" : "Import"}
        </button>
      </div>
    </form>
  );
}

/** What a preview reports: resources, warnings and errors. */
function PreviewPanel({ preview }: { preview: PreviewSiteImportQuery["previewSiteImport"] }) {
  const r = preview.resources;
  return (
    <section className="preview" aria-label="Preview" data-testid="preview">
      <h3>{preview.valid ? "✓ Preview: ready to import" : "✗ Preview: this import would fail"}</h3>
      <ul>
        <li>Project “{r.project.name}” with its production environment</li>
        {r.database && (
          <li>
            Database “{r.database.name}” ({r.database.type})
          </li>
        )}
        <li>
          Application “{r.application.name}” from {r.application.sourceType}
          {r.application.buildType ? `, built with ${r.application.buildType}` : ""}
        </li>
        {r.domain && <li>Domain {r.domain.host}</li>}
      </ul>
      {preview.errors.length > 0 && (
        <div role="alert">
          <h4>Errors</h4>
          <ul>
            {preview.errors.map((e) => (
              <li key={e}>{e}</li>
            ))}
          </ul>
        </div>
      )}
      {preview.warnings.length > 0 && (
        <div>
          <h4>Warnings</h4>
          <ul>
            {preview.warnings.map((w) => (
              <li key={w}>{w}</li>
            ))}
          </ul>
        </div>
      )}
    </section>
  );
}
