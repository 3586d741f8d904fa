/**
 * The saved docs hostname's state at the docs host: DNS check (with the CNAME target to set), last
 * synchronisation time, and the conflict state; plus the theme endpoint URL and the loader snippet to copy.
 */
import { useId } from "react";
import { CopyButton } from "../../shared/form.tsx";
import type { DocsThemeFields } from "./operations.ts";

const DNS: Record<string, { icon: string; label: string; tone: string }> = {
  PENDING: { icon: "…", label: "Not checked yet", tone: "pending" },
  OK: { icon: "✓", label: "CNAME is correct", tone: "success" },
  WRONG_TARGET: { icon: "✗", label: "CNAME missing or wrong", tone: "failed" },
};

/** The registration facts of `theme` (nothing to show without a saved hostname). */
export function HostnameStatus({ theme }: { theme: DocsThemeFields }) {
  const reg = theme.docsRegistration;
  const snippetId = useId();
  return (
    <section className="card" aria-label="Docs hostname and loader" data-testid="docs-hostname">
      <h2>Docs hostname and loader</h2>
      {reg ? (
        <dl className="facts">
          <dt>Hostname</dt>
          <dd>
            <code>{reg.hostname}</code>
          </dd>
          <dt>DNS</dt>
          <dd>
            <span className={`badge ${DNS[reg.dns]?.tone ?? "neutral"}`} data-testid="dns-state">
              <span aria-hidden="true">{DNS[reg.dns]?.icon}</span> {DNS[reg.dns]?.label ?? reg.dns}
            </span>{" "}
            <span className="muted">
              Set a CNAME from <code>{reg.hostname}</code> to <code>{reg.cnameTarget}</code>.
            </span>
          </dd>
          <dt>Synchronised</dt>
          <dd data-testid="synced-at">
            {reg.syncedAt
              ? new Date(reg.syncedAt).toLocaleString()
              : "Not yet (the next synchronisation runs within a minute)"}
          </dd>
          <dt>Conflict</dt>
          <dd data-testid="conflict">
            {reg.conflict ? (
              <span className="badge failed">
                <span aria-hidden="true">✗</span> Another license holds this hostname: docs sites on it do not get this
                theme
              </span>
            ) : (
              "None"
            )}
          </dd>
        </dl>
      ) : (
        <p className="muted">No docs hostname saved.</p>
      )}
      <dl className="facts">
        <dt>Theme endpoint</dt>
        <dd>
          <code data-testid="theme-url">{theme.themeUrl}</code>{" "}
          <CopyButton text={theme.themeUrl} label="Copy the theme endpoint URL" />
        </dd>
      </dl>
      <div className="field">
        <label htmlFor={snippetId}>Loader snippet (put it in the docs site's &lt;head&gt;)</label>
        <div className="row">
          <textarea id={snippetId} className="mono" rows={3} readOnly value={theme.loaderSnippet} />
          <CopyButton text={theme.loaderSnippet} label="Copy the loader snippet" />
        </div>
      </div>
    </section>
  );
}
