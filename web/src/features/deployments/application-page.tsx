/**
 * `/apps/<id>`: one application and its deployments (newest 50: status in words, title, trigger, commit, times),
 * a Deploy button (`deployApplication`; owners, admins and members), per deployment the actions its status allows
 * (queued: Cancel; done, error, cancelled: Redeploy; running: none), and the selected deployment's log. Status and
 * log lines arrive live through the `deploymentUpdated(applicationId)` subscription over graphql-ws: no polling.
 */
import { useCallback, useEffect, useRef, useState } from "react";
import { useQuery, useSubscription } from "urql";
import type { DeploymentUpdatedSubscription } from "../../gql/graphql.ts";
import { describeError } from "../../shared/errors.ts";
import { FeedbackScope, useNotice } from "../../shared/feedback.tsx";
import { Field, Message } from "../../shared/form.tsx";
import { useViewer } from "../../shared/layout.tsx";
import { Link } from "../../shared/router.tsx";
import { useAction } from "../../shared/use-action.ts";
import { ApplicationManagement } from "./app-manage.tsx";
import { sourceText } from "./app-settings-section.tsx";
import { InApplicationOrganization } from "./application-organization.tsx";
import { canManageDeploys } from "./deploy-settings-page.tsx";
import { ApplicationHealthBadge, ApplicationStatusBadge } from "./deploy-status.tsx";
import { DeploymentLog, type LogLine } from "./deployment-log.tsx";
import { DeploymentTable } from "./deployment-table.tsx";
import { APPLICATION_MANAGE } from "./manage-operations.ts";
import { APPLICATION_DEPLOYMENTS, DEPLOY_APPLICATION, DEPLOYMENT_UPDATED, type DeploymentRow } from "./operations.ts";

/** Roles that may deploy (spec role table: owners, admins and members). */
function canDeploy(role: string | null | undefined): boolean {
  return role === "owner" || role === "admin" || role === "member";
}

/** How far a status is in the lifecycle: a later report never loses to an earlier one. */
function rank(status: string | null): number {
  if (status === "queued") return 0;
  if (status === "running") return 1;
  return 2;
}

/** The heading's source: the image, or the repository (the clone URL of a git source) and branch. */
function SourceLine({
  app,
}: {
  app: {
    sourceType?: string | null;
    source: { repo?: string | null; branch?: string | null; dockerImage?: string | null; customGitUrl?: string | null };
  };
}) {
  const where = sourceText(app);
  if (app.sourceType === "docker" || (!app.sourceType && app.source.dockerImage))
    return (
      <>
        image <code>{app.source.dockerImage}</code>
      </>
    );
  return (
    <>
      {app.sourceType ?? "source"} {where ? <code>{where}</code> : "(no repository)"} branch{" "}
      <code>{app.source.branch || "main"}</code>
    </>
  );
}

/**
 * The application page for `id`, in the application's organization: its actions' messages clear one another (a
 * feedback scope).
 */
export function ApplicationPage({ id }: { id: string }) {
  return (
    <InApplicationOrganization applicationId={id}>
      <FeedbackScope>
        <ApplicationPageBody id={id} />
      </FeedbackScope>
    </InApplicationOrganization>
  );
}

function ApplicationPageBody({ id }: { id: string }) {
  const { viewer } = useViewer();
  const orgId = viewer?.viewer.activeOrganization?.id ?? "";
  const [result, reexecute] = useQuery({
    query: APPLICATION_DEPLOYMENTS,
    variables: { id, organizationId: orgId },
    pause: !orgId,
  });
  const reload = useCallback(() => reexecute({ requestPolicy: "network-only" }), [reexecute]);
  const app = result.data?.application;
  const role = result.data?.organization?.viewerRole;

  /** Rows reported by mutations and events, fresher than the last read when further in the lifecycle. */
  const [live, setLive] = useState<Record<string, DeploymentRow>>({});
  /** Statuses each deployment was seen in on this page, in order (for people and tests: queued → running → done). */
  const [seen, setSeen] = useState<Record<string, string[]>>({});
  const [liveLines, setLiveLines] = useState<Record<string, LogLine[]>>({});
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const [queuedNotice, setQueuedNotice] = useNotice();
  /** Changed when a deployment was queued or changed status: the management part re-reads `needsDeployment`. */
  const [reread, setReread] = useState(0);
  // The same read as the management sections (shared by urql): the source for the heading (clone URL of git).
  const [manage] = useQuery({ query: APPLICATION_MANAGE, variables: { id } });

  const noteSeen = useCallback((id: string, status: string | null | undefined) => {
    setSeen((s) => {
      const list = s[id] ?? [];
      const word = status ?? "unknown";
      const last = list[list.length - 1];
      // A stale read (older than an event already applied) adds nothing.
      if (last === word || (last !== undefined && rank(last) > rank(status ?? null))) return s;
      return { ...s, [id]: [...list, word] };
    });
  }, []);
  const note = useCallback(
    (d: DeploymentRow) => {
      setLive((l) => {
        const old = l[d.id];
        return old && rank(old.status ?? null) > rank(d.status ?? null) ? l : { ...l, [d.id]: d };
      });
      noteSeen(d.id, d.status);
    },
    [noteSeen],
  );

  const listed = app?.deployments ?? [];
  const rows = listed.map((r) => {
    const l = live[r.id];
    return l && rank(l.status ?? null) > rank(r.status ?? null) ? l : r;
  });
  // A deployment just queued by this page but not in the last read yet comes first.
  for (const l of Object.values(live)) {
    if (!rows.some((r) => r.id === l.id)) rows.unshift(l);
  }
  rows.sort((a, b) => b.createdAt.localeCompare(a.createdAt));
  useEffect(() => {
    for (const r of app?.deployments ?? []) noteSeen(r.id, r.status);
  }, [app?.deployments, noteSeen]);
  const selected = rows.find((r) => r.id === selectedId) ?? rows[0] ?? null;

  // The handler only accumulates events (it may run twice under StrictMode); the effect applies new ones once.
  const [sub] = useSubscription<DeploymentUpdatedSubscription, DeploymentUpdatedSubscription[]>(
    { query: DEPLOYMENT_UPDATED, variables: { applicationId: id }, pause: !orgId },
    (prev, event) => [...(prev ?? []), event],
  );
  const applied = useRef(0);
  const known = useRef(new Set<string>());
  known.current = new Set(rows.map((r) => r.id));
  useEffect(() => {
    const events = sub.data ?? [];
    const fresh = events.slice(applied.current);
    applied.current = events.length;
    let stale = false;
    for (const { deploymentUpdated: e } of fresh) {
      if (e.logLine) {
        const line = e.logLine;
        setLiveLines((m) => ({ ...m, [e.deploymentId]: [...(m[e.deploymentId] ?? []), line] }));
        note(e.deployment);
      } else {
        note({ ...e.deployment, status: e.status });
        // A status change also changes the application's status; a deployment queued elsewhere is not listed yet.
        stale = true;
      }
      if (!known.current.has(e.deploymentId)) stale = true;
    }
    if (stale) {
      reload();
      setReread((n) => n + 1);
    }
  }, [sub.data, reload, note]);

  const deploy = useAction(DEPLOY_APPLICATION);
  const onQueued = (d: DeploymentRow) => {
    note(d);
    setSelectedId(d.id);
    setQueuedNotice(`Deployment “${d.title}” queued.`);
    // Older queued deployments were superseded (cancelled): re-read the list once; queuing cleared
    // `needsDeployment`: re-read the application's management fields too.
    reload();
    setReread((n) => n + 1);
  };

  if (!orgId || (result.fetching && !result.data)) return <p aria-live="polite">Loading…</p>;
  if (!app) return <Message kind="error">{describeError(result.error) ?? "Application not found."}</Message>;
  const mayDeploy = canDeploy(role);
  return (
    <>
      <h1>
        {app.name} <ApplicationStatusBadge status={app.applicationStatus} />{" "}
        <ApplicationHealthBadge health={app.health} />
      </h1>
      <p className="muted">
        <code>{app.appName}</code> · {app.project.name} / {app.environment.name} ·{" "}
        <SourceLine app={manage.data?.application ?? app} />
        {app.domains.map((d) => (
          <span key={d.id}>
            {" "}
            ·{" "}
            <a href={`${d.https ? "https" : "http"}://${d.host}`} target="_blank" rel="noreferrer">
              {d.host}
            </a>
          </span>
        ))}
      </p>
      <p>
        <Link href={`/settings/deploy?app=${app.id}`}>
          {canManageDeploys(role) ? "Deploy URL and push settings" : "Push settings"}
        </Link>
      </p>
      <Message kind="error">{describeError(result.error)}</Message>
      {mayDeploy && (
        <form
          className="card row"
          aria-label={`Deploy ${app.name}`}
          onSubmit={async (e) => {
            e.preventDefault();
            setQueuedNotice(null);
            const formEl = e.currentTarget;
            const title = String(new FormData(formEl).get("title") ?? "").trim();
            const r = await deploy.exec({ applicationId: app.id, title: title || null });
            if (r.data) {
              formEl.reset();
              onQueued(r.data.deployApplication);
            }
          }}
        >
          <Field label="Deployment title (optional)" name="title" maxLength={200} placeholder="Manual deployment" />
          <button type="submit" className="primary" disabled={deploy.state.fetching}>
            Deploy
          </button>
          <Message kind="error">{deploy.error}</Message>
          {queuedNotice && <Message kind="success">{queuedNotice}</Message>}
        </form>
      )}
      <ApplicationManagement
        part="notice"
        id={app.id}
        role={role}
        mayDeploy={mayDeploy}
        deploying={deploy.state.fetching}
        deployError={deploy.error}
        reread={reread}
        deploy={async () => {
          setQueuedNotice(null);
          const r = await deploy.exec({ applicationId: app.id, title: null });
          if (r.data) onQueued(r.data.deployApplication);
        }}
      />
      <div className="split">
        <section className="card" aria-labelledby="deployments-title">
          <h2 id="deployments-title">Deployments</h2>
          <p className="muted" aria-live="polite">
            {sub.error
              ? `Live updates unavailable: ${describeError(sub.error)}`
              : "Live: status and log lines appear as they happen."}
          </p>
          {rows.length === 0 ? (
            <p>No deployments yet.</p>
          ) : (
            <DeploymentTable
              rows={rows}
              seen={seen}
              selectedId={selected?.id ?? null}
              onSelect={setSelectedId}
              mayDeploy={mayDeploy}
              onQueued={onQueued}
              onChanged={note}
            />
          )}
        </section>
        {selected && (
          <DeploymentLog
            key={selected.id}
            applicationId={app.id}
            deployment={selected}
            position={rows.findIndex((r) => r.id === selected.id)}
            liveLines={liveLines[selected.id] ?? []}
          />
        )}
      </div>
      <ApplicationManagement
        part="sections"
        id={app.id}
        role={role}
        mayDeploy={mayDeploy}
        deploying={deploy.state.fetching}
        deployError={deploy.error}
        reread={reread}
        deploy={async () => {
          setQueuedNotice(null);
          const r = await deploy.exec({ applicationId: app.id, title: null });
          if (r.data) onQueued(r.data.deployApplication);
        }}
      />
    </>
  );
}
