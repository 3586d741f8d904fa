/**
 * `/projects/<id>/payments`: the project's payment gateway services (spec: Payment gateway service). Owners and
 * admins add, edit and delete services and reveal the signing key; members see the panel read-only without it.
 * While a merchant is provisioning the page re-reads every {@link PROVISIONING_REFRESH_MS}.
 */
import { useEffect } from "react";
import { useQuery } from "urql";
import { describeError } from "../../shared/errors.ts";
import { Field, Message } from "../../shared/form.tsx";
import { useViewer } from "../../shared/layout.tsx";
import { Link } from "../../shared/router.tsx";
import { useAction } from "../../shared/use-action.ts";
import { CREATE_PAYMENT_SERVICE, PROJECT_PAYMENTS } from "./operations.ts";
import { ServiceCard } from "./service-card.tsx";

/** How often (ms) the page re-reads while a merchant is provisioning. */
export const PROVISIONING_REFRESH_MS = 1_500;

/** The add form (owners and admins). */
function CreateService({ projectId, reload }: { projectId: string; reload: () => void }) {
  const create = useAction(CREATE_PAYMENT_SERVICE, reload);
  return (
    <form
      className="card"
      aria-label="Add a payment gateway service"
      onSubmit={async (e) => {
        e.preventDefault();
        const formEl = e.currentTarget;
        const form = new FormData(formEl);
        const webhookUrl = String(form.get("webhookUrl") ?? "").trim();
        const r = await create.exec({
          projectId,
          name: String(form.get("name")).trim(),
          webhookUrl: webhookUrl || null,
        });
        if (!r.error) formEl.reset();
      }}
    >
      <h2>Add a service</h2>
      <p className="hint">
        The organization's first service creates its merchant at the gateway (provisioning takes a moment).
      </p>
      <div className="row">
        <Field label="Service name" name="name" required maxLength={100} />
        <Field label="Webhook URL (optional)" name="webhookUrl" type="url" maxLength={2048} />
      </div>
      <button type="submit" className="primary" disabled={create.state.fetching}>
        Add service
      </button>
      <Message kind="error">{create.error}</Message>
    </form>
  );
}

/** The page of project `projectId`. */
export function PaymentsPage({ projectId }: { projectId: string }) {
  const { viewer } = useViewer();
  const [result, reexecute] = useQuery({
    query: PROJECT_PAYMENTS,
    variables: { projectId },
    requestPolicy: "network-only",
  });
  const reload = () => reexecute({ requestPolicy: "network-only" });
  const services = result.data?.project?.paymentGatewayServices ?? [];
  const provisioning = services.some((s) => s.merchantStatus === "PROVISIONING");
  // biome-ignore lint/correctness/useExhaustiveDependencies: re-reads the same query while provisioning
  useEffect(() => {
    if (!provisioning) return;
    const timer = setInterval(reload, PROVISIONING_REFRESH_MS);
    return () => clearInterval(timer);
  }, [provisioning]);
  const role = viewer?.viewer.role;
  const canManage = role === "owner" || role === "admin";
  const project = result.data?.project;
  return (
    <>
      <p>
        <Link href="/projects">← Projects</Link>
      </p>
      <h1>Payment gateway{project ? ` · ${project.name}` : ""}</h1>
      <Message kind="error">{describeError(result.error)}</Message>
      {result.data && !project && !result.error && <Message kind="error">Project not found.</Message>}
      {project && (
        <>
          {!canManage && (
            <Message kind="info">Read-only: owners and admins manage payment services and see the signing key.</Message>
          )}
          <div aria-live="polite">
            {provisioning && <p className="muted">The merchant is being provisioned at the gateway…</p>}
          </div>
          {services.length === 0 && <p className="muted">No payment gateway services in this project yet.</p>}
          {services.map((s) => (
            <ServiceCard key={s.id} projectId={projectId} service={s} canManage={canManage} reload={reload} />
          ))}
          {canManage && <CreateService projectId={projectId} reload={reload} />}
        </>
      )}
    </>
  );
}
