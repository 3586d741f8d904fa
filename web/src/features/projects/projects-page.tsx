/** `/projects`: the organization's plan and usage, and the project → environment → application tree. */
import { useViewer } from "../../shared/layout.tsx";
import { PlanUsageCard } from "./plan-usage.tsx";
import { ProjectTree } from "./project-tree.tsx";

/** The page (signed in; the active organization's data). */
export function ProjectsPage() {
  const { viewer } = useViewer();
  const org = viewer?.viewer.activeOrganization;
  return (
    <>
      <h1>Projects</h1>
      {!viewer ? (
        <p aria-live="polite">Loading…</p>
      ) : !org ? (
        <p>No active organization.</p>
      ) : (
        <>
          <PlanUsageCard organizationId={org.id} />
          <ProjectTree manage={viewer.viewer.role === "owner" || viewer.viewer.role === "admin"} />
        </>
      )}
    </>
  );
}
