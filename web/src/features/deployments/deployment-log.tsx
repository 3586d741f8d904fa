/**
 * The log of one deployment: the stored lines (read once, through `Application.deployments(first:)` up to the
 * selected one, as the schema has no single-deployment query) followed by the lines that arrived live through
 * `deploymentUpdated`; a line both read and received is shown once. Level in words, not by colour alone.
 */
import { useEffect, useRef } from "react";
import { useQuery } from "urql";
import { describeError } from "../../shared/errors.ts";
import { Message } from "../../shared/form.tsx";
import { DeploymentStatusBadge, isActive } from "./deploy-status.tsx";
import { DEPLOYMENT_LOGS, type DeploymentRow } from "./operations.ts";

/** One log line as the API gives it. */
export interface LogLine {
  at: string;
  level: string;
  text: string;
}

const LEVEL_WORD: Record<string, string> = { info: "INFO", warn: "WARN", error: "ERROR" };

function key(line: LogLine): string {
  return `${line.at}|${line.level}|${line.text}`;
}

/** The read lines, then the live ones not among them. */
export function mergeLines(read: LogLine[], live: LogLine[]): LogLine[] {
  const have = new Set(read.map(key));
  return [...read, ...live.filter((l) => !have.has(key(l)))];
}

/**
 * The log panel of `deployment`, at `position` (0 = newest) among the application's deployments; `liveLines` came
 * through the subscription.
 */
export function DeploymentLog({
  applicationId,
  deployment,
  position,
  liveLines,
}: {
  applicationId: string;
  deployment: DeploymentRow;
  position: number;
  liveLines: LogLine[];
}) {
  const [result] = useQuery({
    query: DEPLOYMENT_LOGS,
    variables: { id: applicationId, first: Math.min(50, Math.max(1, position + 1)) },
    requestPolicy: "network-only",
  });
  const read = result.data?.application?.deployments.find((d) => d.id === deployment.id)?.logs ?? [];
  const lines = mergeLines(read, liveLines);
  const end = useRef<HTMLLIElement>(null);
  useEffect(() => {
    if (lines.length > 0) end.current?.scrollIntoView?.({ block: "nearest" });
  }, [lines.length]);
  return (
    <section className="card" aria-labelledby="log-title" data-testid="deployment-log">
      <h2 id="log-title">Log · {deployment.title}</h2>
      <p>
        <DeploymentStatusBadge status={deployment.status} />
        {isActive(deployment.status) && <span className="muted"> new lines appear as they are written</span>}
      </p>
      <Message kind="error">{describeError(result.error)}</Message>
      {deployment.errorMessage && <Message kind="info">{deployment.errorMessage}</Message>}
      {lines.length === 0 ? (
        <p className="muted">{result.fetching ? "Loading…" : "No log lines yet."}</p>
      ) : (
        <ol className="log" role="log" aria-label={`Log of ${deployment.title}`}>
          {lines.map((l, i) => (
            <li
              // biome-ignore lint/suspicious/noArrayIndexKey: identical lines may repeat; the order never changes
              key={`${i}:${key(l)}`}
              className={`level-${l.level}`}
              ref={i === lines.length - 1 ? end : undefined}
            >
              <time dateTime={l.at}>{new Date(l.at).toLocaleTimeString()}</time>{" "}
              <span className="level">{LEVEL_WORD[l.level] ?? l.level.toUpperCase()}</span> <span>{l.text}</span>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
