/**
 * The project → environment → application tree of the active organization: nested lists (a list per level, so
 * screen readers announce the depth), each application with status and health in words, its last deployment,
 * domains, and a link to its page; each environment lists its databases (`databases.tsx`); each project links to its
 * payment gateway services. Owners and admins also add, rename and delete environments, add and delete applications,
 * and add, rotate and delete databases, deletions behind confirmations (`tree-actions.tsx`, `databases.tsx`).
 */
import { useQuery } from "urql";
import { describeError } from "../../shared/errors.ts";
import { Message } from "../../shared/form.tsx";
import { Link } from "../../shared/router.tsx";
import { count } from "../../shared/words.ts";
import {
  ApplicationHealthBadge,
  ApplicationStatusBadge,
  DeploymentStatusBadge,
} from "../deployments/deploy-status.tsx";
import { DatabasePasswords, EnvironmentDatabases } from "./databases.tsx";
import { PROJECT_TREE, type ProjectTreeQuery } from "./operations.ts";
import { DeleteApplication, DeleteEnvironment, RenameEnvironment } from "./tree-actions.tsx";
import { AddApplication, AddEnvironment } from "./tree-add.tsx";

/** What the tree's items need to offer changes: whether the viewer manages, and a re-read of the tree. */
type Manage = { manage: boolean; onChanged: () => void };

type ProjectNode = ProjectTreeQuery["projects"]["edges"][number]["node"];
type AppNode = ProjectNode["environments"][number]["applications"][number];

function when(iso: string | null | undefined): string {
  return iso ? new Date(iso).toLocaleString() : "—";
}

/** One application: name (link), status, health, last deployment and domains. */
function AppItem({ app, manage, onChanged }: { app: AppNode } & Manage) {
  const last = app.deployments[0];
  return (
    <li className="app-item" data-app-id={app.id}>
      <Link href={`/apps/${encodeURIComponent(app.id)}`}>{app.name}</Link> <code className="muted">{app.appName}</code>{" "}
      <ApplicationStatusBadge status={app.applicationStatus} /> <ApplicationHealthBadge health={app.health} />
      <div className="muted">
        Last deployment:{" "}
        {last ? (
          <>
            <DeploymentStatusBadge status={last.status} /> {last.title} · {when(last.finishedAt ?? last.createdAt)}
          </>
        ) : (
          "none"
        )}
        {" · "}Domains:{" "}
        {app.domains.length === 0
          ? "none"
          : app.domains.map((d, i) => (
              <span key={d.id}>
                {i > 0 && ", "}
                <code>{d.host}</code>
                {d.https ? " (https)" : ""}
              </span>
            ))}
      </div>
      {manage && <DeleteApplication app={app} onChanged={onChanged} />}
    </li>
  );
}

/** One project with its environments. */
function ProjectItem({ project, manage, onChanged }: { project: ProjectNode } & Manage) {
  return (
    <li data-project-id={project.id}>
      <strong data-landing>{project.name}</strong>
      {project.description && <span className="muted"> — {project.description}</span>}{" "}
      <Link
        href={`/projects/${encodeURIComponent(project.id)}/payments`}
        aria-label={`Payment gateway of ${project.name}`}
      >
        Payment gateway
      </Link>
      <ul>
        {project.environments.map((env) => (
          <li key={env.id} data-environment-id={env.id}>
            Environment <strong data-landing>{env.name}</strong>{" "}
            <span className="muted">
              ({count(env.applications.length, "application")}, {count(env.databases.length, "database")})
            </span>{" "}
            {manage && (
              <>
                <RenameEnvironment env={env} onChanged={onChanged} />
                <DeleteEnvironment env={env} onChanged={onChanged} />
              </>
            )}
            {env.applications.length > 0 && (
              <ul>
                {env.applications.map((app) => (
                  <AppItem key={app.id} app={app} manage={manage} onChanged={onChanged} />
                ))}
              </ul>
            )}
            <EnvironmentDatabases env={env} manage={manage} onChanged={onChanged} />
            {manage && <AddApplication envId={env.id} envName={env.name} onChanged={onChanged} />}
          </li>
        ))}
      </ul>
      {manage && <AddEnvironment projectId={project.id} projectName={project.name} onChanged={onChanged} />}
    </li>
  );
}

/**
 * The tree card (first 100 projects, with a "more" notice when there are others); `manage`: owners, admins.
 * `onChanged` is told after each change made in the tree (and on Refresh), e.g. to re-read the plan's usage.
 */
export function ProjectTree({ manage, onChanged: changed }: { manage: boolean; onChanged?: () => void }) {
  const [result, reexecute] = useQuery({ query: PROJECT_TREE, variables: {}, requestPolicy: "network-only" });
  const onChanged = () => {
    reexecute({ requestPolicy: "network-only" });
    changed?.();
  };
  const projects = result.data?.projects;
  return (
    <section className="card" aria-labelledby="tree-title" data-testid="project-tree">
      <h2 id="tree-title">Projects, environments and applications</h2>
      <div className="row">
        <button type="button" onClick={onChanged}>
          Refresh
        </button>
        {projects && <span className="muted">{count(projects.totalCount, "project")}</span>}
      </div>
      <Message kind="error">{describeError(result.error)}</Message>
      {projects &&
        (projects.edges.length === 0 ? (
          <p className="muted">No projects yet: import a site to create one.</p>
        ) : (
          <DatabasePasswords>
            <ul className="tree" aria-label="Projects, environments and applications">
              {projects.edges.map((e) => (
                <ProjectItem key={e.node.id} project={e.node} manage={manage} onChanged={onChanged} />
              ))}
            </ul>
          </DatabasePasswords>
        ))}
      {projects?.pageInfo.hasNextPage && <p className="muted">Showing the first 100 projects.</p>}
    </section>
  );
}
