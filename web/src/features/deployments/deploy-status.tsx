/**
 * Status words of deployments and applications: an icon and a word in every badge (colour only as an extra), and
 * which actions a deployment's status allows (queued: cancel; done, error, cancelled: redeploy; running: none).
 */

const DEPLOYMENT_STATUS: Record<string, { icon: string; label: string; tone: string }> = {
  queued: { icon: "⏳", label: "Queued", tone: "pending" },
  running: { icon: "▶", label: "Running", tone: "running" },
  done: { icon: "✓", label: "Done", tone: "success" },
  error: { icon: "✗", label: "Error", tone: "failed" },
  cancelled: { icon: "⊘", label: "Cancelled", tone: "neutral" },
};

const APPLICATION_STATUS: Record<string, { icon: string; label: string; tone: string }> = {
  idle: { icon: "○", label: "Never deployed", tone: "neutral" },
  deploying: { icon: "▶", label: "Deploying", tone: "running" },
  running: { icon: "✓", label: "Running", tone: "success" },
  error: { icon: "✗", label: "Error", tone: "failed" },
};

const UNKNOWN = { icon: "?", label: "Unknown", tone: "neutral" };

/** A deployment's status badge (`queued`, `running`, `done`, `error`, `cancelled`; null → Unknown). */
export function DeploymentStatusBadge({ status }: { status: string | null | undefined }) {
  const s = (status && DEPLOYMENT_STATUS[status]) || UNKNOWN;
  return (
    <span className={`badge ${s.tone}`} data-testid="deployment-status" data-status={status ?? ""}>
      <span aria-hidden="true">{s.icon}</span> {s.label}
    </span>
  );
}

/** An application's status badge (`idle`, `deploying`, `running`, `error`; null → Unknown). */
export function ApplicationStatusBadge({ status }: { status: string | null | undefined }) {
  const s = (status && APPLICATION_STATUS[status]) || UNKNOWN;
  return (
    <span className={`badge ${s.tone}`} data-testid="application-status">
      <span aria-hidden="true">{s.icon}</span> {s.label}
    </span>
  );
}

const HEALTH: Record<string, { icon: string; label: string; tone: string }> = {
  UNKNOWN: { icon: "?", label: "Health unknown", tone: "neutral" },
  HEALTHY: { icon: "✓", label: "Healthy", tone: "success" },
  UNHEALTHY: { icon: "✗", label: "Unhealthy", tone: "failed" },
};

/** An application's health badge (`Application.health`: probes and rollout), in words as well as colour. */
export function ApplicationHealthBadge({ health }: { health: string | null | undefined }) {
  const s = (health && HEALTH[health]) || HEALTH.UNKNOWN;
  return (
    <span className={`badge ${s.tone}`} data-testid="application-health">
      <span aria-hidden="true">{s.icon}</span> {s.label}
    </span>
  );
}

/** What a deployment in `status` offers: cancel while queued or running, redeploy once it ended. */
export function deploymentActions(status: string | null | undefined): { cancel: boolean; redeploy: boolean } {
  return {
    cancel: status === "queued" || status === "running",
    redeploy: status === "done" || status === "error" || status === "cancelled",
  };
}

/** Whether a deployment in `status` may still change (its log may grow). */
export function isActive(status: string | null | undefined): boolean {
  return status === "queued" || status === "running";
}
