/**
 * The import form: every field of the import request (schema SiteImportInput). The source type switches the
 * fields shown; database, environment variables (key/value rows), domain and port. **Preview** shows what
 * `previewSiteImport` reports before anything is created; **Import** runs `importSite`.
 */
import type { CombinedError } from "@urql/core";
import { useState } from "react";
import { useClient, useMutation, useQuery } from "urql";
import type { PreviewSiteImportQuery } from "../../gql/graphql.ts";
import { describeError, fieldErrorsOf } from "../../shared/errors.ts";
import { Field, Message } from "../../shared/form.tsx";
import { DatabaseFieldset, EnvVarsFieldset, RoutingFieldset, SourceFieldset } from "./import-form-fields.tsx";
import { EMPTY, type FormState, fieldsShown, type SetField, toInput } from "./import-form-state.ts";
import { PreviewPanel } from "./import-preview.tsx";
import { IMPORT_PREREQUISITES, IMPORT_SITE, PREVIEW_SITE_IMPORT, type SiteImportRow } from "./operations.ts";

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
  const set: SetField = (key, value) => {
    setPreview(null);
    setF((s) => ({ ...s, [key]: value }));
  };
  const client = useClient();
  const [prereq] = useQuery({
    query: IMPORT_PREREQUISITES,
    variables: { id: organizationId },
  });
  // The last refusal: its fields' messages go under them, the rest in the form-level alert.
  const [failure, setFailure] = useState<CombinedError | null>(null);
  const errors = fieldErrorsOf(failure);
  const error = describeError(failure, fieldsShown(f.sourceType));
  const [outcome, setOutcome] = useState<{ kind: "success" | "error"; text: string } | null>(null);
  const [previewing, setPreviewing] = useState(false);
  const [importState, importSite] = useMutation(IMPORT_SITE);
  const providers = (prereq.data?.organization?.gitProviders ?? []).filter((p) => p.type === f.sourceType);
  const sshKeys = prereq.data?.organization?.sshKeys ?? [];

  async function runPreview() {
    setPreviewing(true);
    setFailure(null);
    setOutcome(null);
    const result = await client
      .query(PREVIEW_SITE_IMPORT, { input: toInput(organizationId, f) }, { requestPolicy: "network-only" })
      .toPromise();
    setPreviewing(false);
    if (result.error) {
      setPreview(null);
      setFailure(result.error);
    } else setPreview(result.data?.previewSiteImport ?? null);
  }

  async function runImport() {
    setFailure(null);
    setPreview(null);
    setOutcome(null);
    const result = await importSite({ input: toInput(organizationId, f) });
    if (result.error) return setFailure(result.error);
    if (!result.data) return;
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
        error={errors.name?.join(", ")}
      />
      <SourceFieldset
        f={f}
        set={set}
        providers={providers}
        sshKeys={sshKeys}
        errors={errors}
        onSourceType={(v) => {
          setPreview(null);
          setF((s) => ({ ...s, sourceType: v, providerId: "" }));
        }}
      />
      <DatabaseFieldset f={f} set={set} />
      <EnvVarsFieldset f={f} set={set} />
      <RoutingFieldset f={f} set={set} errors={errors} />
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
