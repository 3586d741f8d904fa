/**
 * `/settings/audit`: the active organization's audit log (owners and admins; docs/audit-log.md) — filters by action,
 * person, target id and time range, a table of entries newest first with "Load more", and the NDJSON export of the
 * same filters. A member sees the server's refusal in words, without the filters and the table they cannot use.
 * A time range whose From is not before its Until is refused under Until, in the labels' words.
 */
import { type FormEvent, useState } from "react";
import { useQuery } from "urql";
import { describeError, fieldErrorsOf } from "../../shared/errors.ts";
import { Field, Message } from "../../shared/form.tsx";
import { useViewer } from "../../shared/layout.tsx";
import { TableScroll } from "../../shared/table-scroll.tsx";
import { AUDIT_EVENTS } from "./operations.ts";

/** The filters as the form holds them (empty: not filtered; times as `datetime-local` values, local time). */
interface Filters {
  action: string;
  actor: string;
  target: string;
  since: string;
  until: string;
}

const NONE: Filters = { action: "", actor: "", target: "", since: "", until: "" };

/** A `datetime-local` value as an ISO instant, or undefined when empty. */
function instant(local: string): string | undefined {
  return local ? new Date(local).toISOString() : undefined;
}

/** The operation's variables of `filters` (empty ones left out). */
function variablesOf(filters: Filters, after?: string) {
  return {
    action: filters.action || undefined,
    actor: filters.actor || undefined,
    target: filters.target || undefined,
    since: instant(filters.since),
    until: instant(filters.until),
    after,
  };
}

/** The export's URL for `filters` (same filters as query parameters). */
function exportUrl(filters: Filters): string {
  const params = new URLSearchParams();
  const vars = variablesOf(filters);
  const names: Record<string, string> = {
    action: "action",
    actor: "actor_user_id",
    target: "target_id",
    since: "since",
    until: "until",
  };
  for (const [key, name] of Object.entries(names)) {
    const value = vars[key as keyof typeof vars];
    if (value) params.set(name, value);
  }
  return `/api/audit-events/export?${params}`;
}

/** One page of entries (the first, or the one after `after`), as table rows. */
function EntryRows({ filters, after, onMore }: { filters: Filters; after?: string; onMore: (cursor: string) => void }) {
  const [result] = useQuery({ query: AUDIT_EVENTS, variables: variablesOf(filters, after) });
  const page = result.data?.auditEvents;
  if (result.error) {
    return (
      <tr>
        <td colSpan={7}>
          <Message kind="error">{auditError(result.error)}</Message>
        </td>
      </tr>
    );
  }
  if (!page) {
    return (
      <tr>
        <td colSpan={7} aria-live="polite">
          Loading…
        </td>
      </tr>
    );
  }
  return (
    <>
      {page.nodes.map((e) => (
        <tr key={e.id}>
          <td>{new Date(e.occurredAt).toLocaleString()}</td>
          <td>
            {e.actorKind === "USER" ? <code>{e.actorUserId}</code> : e.actorKind.toLowerCase()}
            {e.credentialKind && (
              <small className="muted"> via {e.credentialKind.toLowerCase().replace("_", " ")}</small>
            )}
          </td>
          <td>{e.surface.toLowerCase()}</td>
          <th scope="row">
            <code>{e.action}</code>
          </th>
          <td>
            {e.targetIds.map((id) => (
              <code key={id} className="target">
                {id}{" "}
              </code>
            ))}
          </td>
          <td>{e.outcome}</td>
          <td>{e.clientAddress ?? ""}</td>
        </tr>
      ))}
      {page.nodes.length === 0 && !after && (
        <tr>
          <td colSpan={7}>No entries match.</td>
        </tr>
      )}
      {page.pageInfo.hasNextPage && page.pageInfo.endCursor && (
        <tr>
          <td colSpan={7}>
            <button type="button" onClick={() => onMore(page.pageInfo.endCursor!)}>
              Load more
            </button>
          </td>
        </tr>
      )}
    </>
  );
}

/** What the page says when From is not before Until (the form's labels, not the API's argument names). */
const RANGE_ERROR = "From must be before Until.";

/** An error of the entries' read in words: a refused time range in the form's words. */
function auditError(error: Parameters<typeof describeError>[0]): string | null {
  const fields = fieldErrorsOf(error);
  if (fields.since || fields.until) return RANGE_ERROR;
  return describeError(error);
}

/** A member's view: the server's refusal, nothing to fill in. */
function Refusal() {
  const [result] = useQuery({ query: AUDIT_EVENTS, variables: variablesOf(NONE) });
  if (result.fetching && !result.error) return <p aria-live="polite">Loading…</p>;
  return (
    <Message kind="error">
      {auditError(result.error) ?? "Your role does not allow reading the audit log: owners and admins read it."}
    </Message>
  );
}

/** The audit log page. */
export function AuditLogPage() {
  const { viewer } = useViewer();
  const role = viewer?.viewer.role;
  const [filters, setFilters] = useState<Filters>(NONE);
  const [pages, setPages] = useState<string[]>([]);
  const [rangeError, setRangeError] = useState<string | null>(null);
  const apply = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const data = new FormData(e.currentTarget);
    const text = (name: keyof Filters) => String(data.get(name) ?? "").trim();
    const since = text("since");
    const until = text("until");
    if (since && until && new Date(since).getTime() >= new Date(until).getTime()) {
      setRangeError(RANGE_ERROR);
      return;
    }
    setRangeError(null);
    setFilters({ action: text("action"), actor: text("actor"), target: text("target"), since, until });
    setPages([]);
  };
  const intro = (
    <>
      <h1>Audit log</h1>
      <p className="muted">
        Every change in this organization, every agent and MCP call and every sign-in event, newest first. Entries hold
        ids, never secrets.
      </p>
    </>
  );
  if (!viewer) return <p aria-live="polite">Loading…</p>;
  if (role !== "owner" && role !== "admin")
    return (
      <>
        {intro}
        <Refusal />
      </>
    );
  return (
    <>
      {intro}
      <section className="card" aria-labelledby="audit-filters">
        <h2 id="audit-filters">Filters</h2>
        <form className="row" aria-label="Filters" onSubmit={apply} onChange={() => setRangeError(null)}>
          <Field label="Action" name="action" placeholder="createWebhook" />
          <Field label="Person (user id)" name="actor" placeholder="usr_…" />
          <Field label="Target id" name="target" />
          <Field label="From" name="since" type="datetime-local" />
          <Field label="Until" name="until" type="datetime-local" error={rangeError} />
          <button type="submit" className="primary">
            Apply filters
          </button>
        </form>
        <p>
          <a href={exportUrl(filters)} download="audit-events.ndjson">
            Export these entries (NDJSON)
          </a>
        </p>
      </section>
      <TableScroll label="Audit entries">
        <table>
          <caption>Audit entries</caption>
          <thead>
            <tr>
              <th scope="col">Time</th>
              <th scope="col">Actor</th>
              <th scope="col">Surface</th>
              <th scope="col">Action</th>
              <th scope="col">Targets</th>
              <th scope="col">Outcome</th>
              <th scope="col">Address</th>
            </tr>
          </thead>
          <tbody>
            {[undefined, ...pages].map((after) => (
              <EntryRows
                key={after ?? "first"}
                filters={filters}
                after={after}
                onMore={(cursor) => setPages((p) => (p.includes(cursor) ? p : [...p, cursor]))}
              />
            ))}
          </tbody>
        </table>
      </TableScroll>
    </>
  );
}
