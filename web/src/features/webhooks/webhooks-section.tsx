/** The Webhooks card of the settings page (owners and admins): an organization's endpoints and the form adding one. */
import { useState } from "react";
import { useQuery } from "urql";
import { describeError, errorCode } from "../../shared/errors.ts";
import { Message } from "../../shared/form.tsx";
import { TableScroll } from "../../shared/table-scroll.tsx";
import { DeliveryLog } from "./delivery-log.tsx";
import { WEBHOOKS } from "./operations.ts";
import { CreateWebhook } from "./webhook-form.tsx";
import { WebhookItem } from "./webhook-item.tsx";

/** The Webhooks card of the settings page (render it for owners and admins only). */
export function WebhooksSection({ organizationId }: { organizationId: string }) {
  const [result, reexecute] = useQuery({ query: WEBHOOKS, variables: { organizationId } });
  const reload = () => reexecute({ requestPolicy: "network-only" });
  const [logOf, setLogOf] = useState<string | null>(null);
  const { code } = errorCode(result.error);
  const planFeature = result.error?.graphQLErrors[0]?.extensions?.planFeature as string | undefined;
  const hooks = result.data?.webhooks ?? [];
  const catalogue = result.data?.webhookEvents ?? [];
  const logHook = hooks.find((h) => h.webhookUuid === logOf);
  return (
    <section className="card" aria-labelledby="webhooks-title">
      <h2 id="webhooks-title">Webhooks</h2>
      <p className="muted">
        Signed HTTPS POSTs of the events you pick. Verify <code>X-Webhook-Signature</code> with the endpoint's secret.
      </p>
      {code === "FORBIDDEN" ? (
        <Message kind="error">
          {result.error?.graphQLErrors[0]?.message}
          {planFeature ? ` (plan feature “${planFeature}”: upgrade the plan to use webhooks)` : ""}
        </Message>
      ) : (
        <Message kind="error">{describeError(result.error)}</Message>
      )}
      {result.data && (
        <>
          {hooks.length === 0 ? (
            <p className="muted">No endpoints yet.</p>
          ) : (
            <TableScroll label="Webhook endpoints">
              <table>
                <caption className="sr-only">Webhook endpoints</caption>
                <thead>
                  <tr>
                    <th scope="col">URL</th>
                    <th scope="col">Events</th>
                    <th scope="col">State</th>
                    <th scope="col">Actions</th>
                  </tr>
                </thead>
                <tbody>
                  {hooks.map((h) => (
                    <WebhookItem
                      key={h.webhookUuid}
                      organizationId={organizationId}
                      hook={h}
                      catalogue={catalogue}
                      reload={reload}
                      logOpen={logOf === h.webhookUuid}
                      toggleLog={() => setLogOf(logOf === h.webhookUuid ? null : h.webhookUuid)}
                    />
                  ))}
                </tbody>
              </table>
            </TableScroll>
          )}
          {logHook && <DeliveryLog key={logHook.webhookUuid} organizationId={organizationId} hook={logHook} />}
          <CreateWebhook organizationId={organizationId} catalogue={catalogue} reload={reload} />
        </>
      )}
    </section>
  );
}
