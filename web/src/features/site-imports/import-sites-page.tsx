/** `/import-sites`: the organization's imports, live, and (owners and admins) the import form. */
import { useState } from "react";
import { CreateOrganization } from "../../shared/create-organization.tsx";
import { describeError } from "../../shared/errors.ts";
import { Message } from "../../shared/form.tsx";
import { useViewer } from "../../shared/layout.tsx";
import { ImportForm } from "./import-form.tsx";
import { ImportList } from "./import-list.tsx";
import type { SiteImportRow } from "./operations.ts";

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
