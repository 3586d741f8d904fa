/**
 * The organization's plan: each quota-limited resource with its count against the plan's limit (a labelled
 * `<meter>` when limited, "unlimited" otherwise), the plan's features, and what happens at a limit.
 */
import { useEffect } from "react";
import { useQuery } from "urql";
import { describeError } from "../../shared/errors.ts";
import { Message } from "../../shared/form.tsx";
import { TableScroll } from "../../shared/table-scroll.tsx";
import { PLAN_USAGE } from "./operations.ts";

const KINDS = ["projects", "applications", "databases", "domains"] as const;

/**
 * The plan card of organization `organizationId`; `reread`: a number the page changes when resources were added or
 * deleted (the usage is read again).
 */
export function PlanUsageCard({ organizationId, reread = 0 }: { organizationId: string; reread?: number }) {
  const [result, reexecute] = useQuery({
    query: PLAN_USAGE,
    variables: { id: organizationId },
    requestPolicy: "network-only",
  });
  useEffect(() => {
    if (reread > 0) reexecute({ requestPolicy: "network-only" });
  }, [reread, reexecute]);
  const plan = result.data?.organization?.plan;
  return (
    <section className="card" aria-labelledby="plan-title" data-testid="plan-usage">
      <h2 id="plan-title">Plan and usage</h2>
      <Message kind="error">{describeError(result.error)}</Message>
      {!plan ? (
        <p className="muted">{result.fetching ? "Loading…" : ""}</p>
      ) : (
        <>
          <p>
            Plan <strong data-testid="plan-name">{plan.name}</strong>
            {plan.features.length > 0 && <span className="muted"> · features: {plan.features.join(", ")}</span>}
          </p>
          <TableScroll label="Plan usage">
            <table>
              <caption className="sr-only">Usage against the plan's limits</caption>
              <thead>
                <tr>
                  <th scope="col">Resource</th>
                  <th scope="col">Used</th>
                  <th scope="col">Limit</th>
                  <th scope="col">Share</th>
                </tr>
              </thead>
              <tbody>
                {KINDS.map((k) => {
                  const limit = plan.quotas[k];
                  const used = plan.usage[k];
                  const full = limit !== null && limit !== undefined && used >= limit;
                  return (
                    <tr key={k} data-quota={k}>
                      <th scope="row">{k[0]!.toUpperCase() + k.slice(1)}</th>
                      <td data-testid="used">{used}</td>
                      <td data-testid="limit">{limit ?? "Unlimited"}</td>
                      <td>
                        {limit === null || limit === undefined ? (
                          <span className="muted">—</span>
                        ) : (
                          <>
                            <meter min={0} max={limit} value={used} aria-label={`${k}: ${used} of ${limit}`} />{" "}
                            {full && <span className="badge failed">Limit reached</span>}
                          </>
                        )}
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </TableScroll>
          <p className="hint">
            Creating a resource at its limit is refused (imports fail their quota check); the owner can change the plan.
          </p>
        </>
      )}
    </section>
  );
}
