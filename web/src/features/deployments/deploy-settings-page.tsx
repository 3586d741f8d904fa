/**
 * `/settings/deploy` (Settings → Deploy): the active organization's projects → environments → applications
 * (first 100 projects), and for the application chosen (`?app=<id>`) its deploy settings panel. Every application
 * links to its page (`/apps/<id>`) with the deployments.
 */
import { useQuery } from "urql";
import { CreateOrganization } from "../../shared/create-organization.tsx";
import { describeError } from "../../shared/errors.ts";
import { Message } from "../../shared/form.tsx";
import { useViewer } from "../../shared/layout.tsx";
import { Link, useLocation } from "../../shared/router.tsx";
import { InApplicationOrganization } from "./application-organization.tsx";
import { DeploySettingsPanel } from "./deploy-settings-panel.tsx";
import { ApplicationStatusBadge } from "./deploy-status.tsx";
import { APPLICATION_TREE } from "./operations.ts";

/** Whether `role` may change deploy settings (owners and admins; spec role table). */
export function canManageDeploys(role: string | null | undefined): boolean {
  return role === "owner" || role === "admin";
}

/** The Settings → Deploy page, in the chosen application's organization. */
export function DeploySettingsPage() {
  const selected = useLocation().query.get("app");
  return selected ? (
    <InApplicationOrganization applicationId={selected}>
      <DeploySettingsBody selected={selected} />
    </InApplicationOrganization>
  ) : (
    <DeploySettingsBody selected={null} />
  );
}

function DeploySettingsBody({ selected }: { selected: string | null }) {
  const { viewer } = useViewer();
  const orgId = viewer?.viewer.activeOrganization?.id;
  const [result] = useQuery({ query: APPLICATION_TREE, variables: { organizationId: orgId ?? "" }, pause: !orgId });
  if (viewer && !orgId) return <CreateOrganization />;
  const org = result.data?.organization;
  const projects = org?.projects.edges.map((e) => e.node) ?? [];
  const canManage = canManageDeploys(org?.viewerRole);
  return (
    <>
      <h1>Deploy settings{org ? ` · ${org.name}` : ""}</h1>
      <p>
        <Link href="/settings">← Settings</Link>
      </p>
      <Message kind="error">{describeError(result.error)}</Message>
      {org && !canManage && (
        <Message kind="info">
          As a member you see the push filters and can deploy from an application's page; owners and admins see the
          deploy URL and change the settings.
        </Message>
      )}
      {!org ? (
        <p aria-live="polite">Loading…</p>
      ) : (
        <div className="split reverse">
          <nav className="card" aria-label="Applications">
            <h2>Applications</h2>
            {projects.length === 0 && <p>No projects yet: import a site first.</p>}
            <ul className="tree">
              {projects.map((p) => (
                <li key={p.id}>
                  <strong>{p.name}</strong> <span className="muted">project</span>
                  <ul>
                    {p.environments.map((env) => (
                      <li key={env.id}>
                        {env.name} <span className="muted">environment</span>
                        {env.applications.length === 0 ? (
                          <p className="muted">No applications.</p>
                        ) : (
                          <ul>
                            {env.applications.map((a) => (
                              <li key={a.id} className="app-item" data-application-id={a.id}>
                                <Link
                                  href={`/settings/deploy?app=${a.id}`}
                                  aria-current={selected === a.id ? "page" : undefined}
                                >
                                  {a.name}
                                </Link>{" "}
                                <ApplicationStatusBadge status={a.applicationStatus} />{" "}
                                <Link href={`/apps/${a.id}`} aria-label={`Deployments of ${a.name}`}>
                                  Deployments
                                </Link>
                              </li>
                            ))}
                          </ul>
                        )}
                      </li>
                    ))}
                  </ul>
                </li>
              ))}
            </ul>
            {org.projects.totalCount > projects.length && (
              <p className="muted">
                Showing the first {projects.length} of {org.projects.totalCount} projects.
              </p>
            )}
          </nav>
          {selected ? (
            <DeploySettingsPanel key={selected} applicationId={selected} canManage={canManage} />
          ) : (
            <p className="card">Choose an application to see its deploy URL, webhook secret and push filters.</p>
          )}
        </div>
      )}
    </>
  );
}
