/**
 * One payment gateway service: merchant code and status, the signing key (revealed on demand, owners and admins),
 * the checkout URL, the payment method toggles, the webhook URL (validation errors in words), delete with the
 * merchant-release consequence stated before confirming, and the relay log. `canManage` false (members): read-only,
 * no key.
 */
import { useId, useState } from "react";
import { useClient } from "urql";
import { describeError } from "../../shared/errors.ts";
import { ConfirmBox, CopyButton, Field, Message } from "../../shared/form.tsx";
import { useAction } from "../../shared/use-action.ts";
import {
  DELETE_PAYMENT_SERVICE,
  PAYMENT_SIGNING_KEYS,
  type PaymentServiceRow,
  SET_PAYMENT_METHOD,
  UPDATE_PAYMENT_SERVICE,
} from "./operations.ts";
import { RelayLog } from "./relay-log.tsx";

/** The merchant's status in words (live while provisioning: the page re-reads until it is active). */
function MerchantStatus({ status }: { status: string }) {
  const active = status === "ACTIVE";
  return (
    <span className={`badge ${active ? "success" : "pending"}`} data-testid="merchant-status">
      <span aria-hidden="true">{active ? "✓" : "…"}</span> {active ? "Active" : "Provisioning"}
    </span>
  );
}

/** The signing key: hidden until "Reveal" reads it (its own query), then shown read-only with Copy. */
function SigningKey({ projectId, service }: { projectId: string; service: PaymentServiceRow }) {
  const client = useClient();
  const id = useId();
  const [key, setKey] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  if (service.merchantStatus !== "ACTIVE")
    return <p className="muted">The signing key exists once the merchant is active.</p>;
  const reveal = async () => {
    const r = await client.query(PAYMENT_SIGNING_KEYS, { projectId }, { requestPolicy: "network-only" }).toPromise();
    if (r.error) return setError(describeError(r.error));
    setKey(r.data?.project?.paymentGatewayServices.find((s) => s.id === service.id)?.signingKey ?? null);
  };
  return (
    <div className="field">
      <label htmlFor={id}>
        Signing key (HMAC-SHA256 key of <code>x-gateway-signature</code>)
      </label>
      <div className="row">
        <input id={id} className="mono wide" readOnly value={key ?? "••••••••••••••••"} data-testid="signing-key" />
        {key ? (
          <>
            <CopyButton text={key} label={`Copy the signing key of ${service.name}`} />
            <button type="button" onClick={() => setKey(null)}>
              Hide
            </button>
          </>
        ) : (
          <button type="button" onClick={reveal} aria-label={`Reveal the signing key of ${service.name}`}>
            Reveal
          </button>
        )}
      </div>
      <Message kind="error">{error}</Message>
    </div>
  );
}

/** The webhook URL form (owners and admins); errors in words. */
function WebhookUrlForm({ service, reload }: { service: PaymentServiceRow; reload: () => void }) {
  const update = useAction(UPDATE_PAYMENT_SERVICE, reload);
  const [saved, setSaved] = useState(false);
  return (
    <form
      aria-label={`Webhook URL of ${service.name}`}
      onSubmit={async (e) => {
        e.preventDefault();
        setSaved(false);
        const url = String(new FormData(e.currentTarget).get("webhookUrl") ?? "").trim();
        const r = await update.exec({ id: service.id, webhookUrl: url || null });
        if (!r.error) setSaved(true);
      }}
    >
      <div className="row">
        <Field
          label="Webhook URL"
          name="webhookUrl"
          type="url"
          maxLength={2048}
          defaultValue={service.webhookUrl ?? ""}
          placeholder="https://shop.example.com/payments/events"
          hint="Verified payment events are relayed here unchanged (public http(s) address; empty: relay nothing)"
        />
        <button type="submit" disabled={update.state.fetching}>
          Save webhook URL
        </button>
      </div>
      <Message kind="error">{update.error}</Message>
      <Message kind="success">{saved ? "Webhook URL saved." : null}</Message>
    </form>
  );
}

/**
 * The method toggles: checkboxes for owners and admins (the box follows the click at once and goes back if the
 * gateway refuses), a disabled list for members.
 */
function Methods({ service, canManage }: { service: PaymentServiceRow; canManage: boolean }) {
  const toggle = useAction(SET_PAYMENT_METHOD);
  const [local, setLocal] = useState<Record<string, boolean>>({});
  if (service.paymentMethods.length === 0)
    return <p className="muted">Payment methods appear once the merchant is active.</p>;
  return (
    <fieldset>
      <legend>Payment methods</legend>
      <p className="hint">Changes affect payments started afterwards; payments already started keep their method.</p>
      {service.paymentMethods.map((m) => (
        <label key={m.id} className="check">
          <input
            type="checkbox"
            checked={local[m.id] ?? m.enabled}
            disabled={!canManage}
            onChange={async (e) => {
              const enabled = e.target.checked;
              setLocal((l) => ({ ...l, [m.id]: enabled }));
              const r = await toggle.exec({ serviceId: service.id, method: m.id, enabled });
              setLocal((l) => ({
                ...l,
                [m.id]: r.error ? !enabled : (r.data?.setPaymentMethodEnabled.enabled ?? enabled),
              }));
            }}
          />
          {m.label} <span className="muted">({m.kind === "card" ? "card" : "mobile money"})</span>
        </label>
      ))}
      <Message kind="error">{toggle.error}</Message>
    </fieldset>
  );
}

/** The card of one service. */
export function ServiceCard({
  projectId,
  service,
  canManage,
  reload,
}: {
  projectId: string;
  service: PaymentServiceRow;
  canManage: boolean;
  reload: () => void;
}) {
  const [confirm, setConfirm] = useState(false);
  const del = useAction(DELETE_PAYMENT_SERVICE, reload);
  return (
    <section className="card" aria-label={`Payment gateway service ${service.name}`} data-service-id={service.id}>
      <h3>{service.name}</h3>
      <dl className="facts">
        <dt>Merchant code</dt>
        <dd>
          <code data-testid="merchant-code">{service.merchantCode}</code>{" "}
          <MerchantStatus status={service.merchantStatus} />
        </dd>
        <dt>Checkout URL</dt>
        <dd>
          {service.checkoutUrl ? (
            <>
              <code data-testid="checkout-url">{service.checkoutUrl}</code>{" "}
              <CopyButton text={service.checkoutUrl} label={`Copy the checkout URL of ${service.name}`} />
            </>
          ) : (
            <span className="muted">Available once the merchant is active.</span>
          )}
        </dd>
        {!canManage && (
          <>
            <dt>Webhook URL</dt>
            <dd>{service.webhookUrl ? <code>{service.webhookUrl}</code> : <span className="muted">None</span>}</dd>
          </>
        )}
      </dl>
      {canManage && <SigningKey projectId={projectId} service={service} />}
      {canManage && <WebhookUrlForm service={service} reload={reload} />}
      <Methods service={service} canManage={canManage} />
      <RelayLog projectId={projectId} serviceId={service.id} name={service.name} />
      {canManage &&
        (confirm ? (
          <ConfirmBox
            label={`Delete ${service.name}`}
            confirmText="Delete service"
            busy={del.state.fetching}
            onConfirm={() => del.exec({ id: service.id })}
            onCancel={() => setConfirm(false)}
          >
            Delete <strong>{service.name}</strong>? Its relay log goes with it. The merchant{" "}
            <code>{service.merchantCode}</code> stays while the organization has other payment gateway services; if this
            is the last one, the merchant is released at the gateway: payments in progress and subscriptions stop, the
            checkout URL stops working and the signing key is removed.
          </ConfirmBox>
        ) : (
          <button type="button" className="danger" onClick={() => setConfirm(true)}>
            Delete {service.name}…
          </button>
        ))}
      <Message kind="error">{del.error}</Message>
    </section>
  );
}
