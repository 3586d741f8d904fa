/** `/projects`: the organization's plan and usage, and the project → environment → application tree. */
import { useState } from "react";
import { FeedbackScope } from "../../shared/feedback.tsx";
import { useViewer } from "../../shared/layout.tsx";
import { PlanUsageCard } from "./plan-usage.tsx";
import { ProjectTree } from "./project-tree.tsx";

/** The page (signed in; the active organization's data). A change in the tree re-reads the plan's usage too. */
export function ProjectsPage() {
  const { viewer } = useViewer();
  const org = viewer?.viewer.activeOrganization;
  const [reread, setReread] = useState(0);
  return (
    <>
      <h1>Projects</h1>
      {!viewer ? (
        <p aria-live="polite">Loading…</p>
      ) : !org ? (
        <p>No active organization.</p>
      ) : (
        <FeedbackScope>
          <PlanUsageCard organizationId={org.id} reread={reread} />
          <ProjectTree
            manage={viewer.viewer.role === "owner" || viewer.viewer.role === "admin"}
            onChanged={() => setReread((n) => n + 1)}
          />
        </FeedbackScope>
      )}
    </>
  );
}
