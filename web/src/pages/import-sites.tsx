/** `/import-sites`: the organization's imports, live, and (owners and admins) the import form. */
import { useState } from "react";
import { useMutation } from "urql";
import { Field, Message } from "../components/form.tsx";
import { ImportForm } from "../components/import-form.tsx";
import { ImportList } from "../components/import-list.tsx";
import { useViewer } from "../components/layout.tsx";
import { describeError } from "../errors.ts";
import { CREATE_ORGANIZATION, SET_ACTIVE_ORGANIZATION, type SiteImportRow } from "../operations.ts";
import { useSession } from "../session.tsx";

/** For a person without an organization: creates one and makes it active. */
export function CreateOrganization() {
  const [state, create] = useMutation(CREATE_ORGANIZATION);
  const [, setActive] = useMutation(SET_ACTIVE_ORGANIZATION);
  const { refresh } = useSession();
  return (
    <form
      className="card narrow"
      onSubmit={async (e) => {
        e.preventDefault();
        const name = String(new FormData(e.currentTarget).get("name"));
        const r = await create({ input: { name } });
        if (r.data) {
          await setActive({ id: r.data.createOrganization.id });
          await refresh();
        }
      }}
    >
      <h2>Create your organization</h2>
      <p>You are not a member of any organization yet. Create one, or open an invitation link you received.</p>
      <Field label="Organization name" name="name" required maxLength={100} />
      <Message kind="error">{describeError(state.error)}</Message>
      <button type="submit" className="primary" disabled={state.fetching}>
        Create organization
      </button>
    </form>
  );
}

/** The import page. */
export function ImportSitesPage() {
  const { viewer, error } = useViewer();
  const [latest, setLatest] = useState<SiteImportRow | null>(null);
  if (error) return <Message kind="error">{describeError(error)}</Message>;
  if (!viewer) return <p aria-live="polite">Loading…</p>;
  const org = viewer.viewer.activeOrganization;
  if (!org) return <CreateOrganization />;
  const canManage = viewer.viewer.role === "owner" || viewer.viewer.role === "admin";
  return (
    <>
      <h1>Site imports · {org.name}</h1>
      {!canManage && (
        <Message kind="info">As a member you can follow imports; owners and admins import and manage them.</Message>
      )}
      <div className={canManage ? "split" : ""}>
        <ImportList key={`list-${org.id}`} canManage={canManage} latest={latest} />
        {canManage && <ImportForm key={`form-${org.id}`} organizationId={org.id} onImported={setLatest} />}
      </div>
    </>
  );
}
