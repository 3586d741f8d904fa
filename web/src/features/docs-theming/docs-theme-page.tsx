/**
 * `/settings/docs`: the docs theme editor (spec "Docs-domain lookup and theme": owners and admins). Site name, logo and
 * favicon URLs (previewed), light and dark palettes (pickers plus the stored HSL triples), footer, custom CSS and the
 * docs hostname; a live preview with the endpoint's CSS; the hostname's DNS/sync/conflict state, the theme URL and the
 * loader snippet. Save errors are said per field (BAD_USER_INPUT `fieldErrors`).
 */
import { useEffect, useId, useState } from "react";
import { useQuery } from "urql";
import { describeError } from "../../shared/errors.ts";
import { Field, FieldError, Message } from "../../shared/form.tsx";
import { useViewer } from "../../shared/layout.tsx";
import { useAction } from "../../shared/use-action.ts";
import { PaletteEditor } from "./color-editor.tsx";
import { HostnameStatus } from "./hostname-status.tsx";
import { DOCS_THEME, type DocsThemeFields, SET_DOCS_THEME } from "./operations.ts";
import { type PreviewTheme, ThemePreview } from "./theme-preview.tsx";

/** The `fieldErrors` the form says under their fields; the palettes' problems go to the form-level alert. */
const ON_FORM = ["siteName", "logoUrl", "faviconUrl", "footerText", "customCss", "docsHostname"] as const;

/** The editor's state: the whole theme, as strings. */
type Draft = PreviewTheme & { docsHostname: string };

const DEFAULT: Draft = {
  siteName: "",
  logoUrl: "",
  faviconUrl: "",
  footerText: "",
  colorsLight: { primary: "222 47% 31%", primaryForeground: "0 0% 100%" },
  colorsDark: { primary: "217 91% 60%", primaryForeground: "0 0% 100%" },
  customCss: "",
  docsHostname: "",
};

function draftOf(t: DocsThemeFields): Draft {
  return {
    siteName: t.siteName,
    logoUrl: t.logoUrl,
    faviconUrl: t.faviconUrl ?? "",
    footerText: t.footerText,
    colorsLight: t.colorsLight as Record<string, string>,
    colorsDark: t.colorsDark as Record<string, string>,
    customCss: t.customCss ?? "",
    docsHostname: t.docsHostname ?? "",
  };
}

/** The editor of organization `organizationId`. */
function Editor({ organizationId }: { organizationId: string }) {
  const [result, reexecute] = useQuery({
    query: DOCS_THEME,
    variables: { organizationId },
    requestPolicy: "network-only",
  });
  const save = useAction(SET_DOCS_THEME, () => reexecute({ requestPolicy: "network-only" }), ON_FORM);
  const [draft, setDraft] = useState<Draft | null>(null);
  const [saved, setSaved] = useState(false);
  const cssId = useId();
  const theme = result.data?.docsTheme;
  useEffect(() => {
    if (result.data && draft === null) setDraft(theme ? draftOf(theme) : DEFAULT);
  }, [result.data, theme, draft]);
  if (result.error) return <Message kind="error">{describeError(result.error)}</Message>;
  if (!draft) return <p aria-live="polite">Loading…</p>;
  const set = (patch: Partial<Draft>) => {
    setSaved(false);
    setDraft({ ...draft, ...patch });
  };
  const text = (key: "siteName" | "logoUrl" | "faviconUrl" | "footerText" | "docsHostname") => ({
    name: key,
    value: draft[key],
    onChange: (e: React.ChangeEvent<HTMLInputElement>) => set({ [key]: e.target.value }),
    error: save.fields[key]?.join(", "),
  });
  const cssError = save.fields.customCss?.join(", ");
  return (
    <div className="split">
      <form
        className="card"
        aria-label="Docs theme"
        onSubmit={async (e) => {
          e.preventDefault();
          const r = await save.exec({
            organizationId,
            input: {
              siteName: draft.siteName,
              logoUrl: draft.logoUrl,
              faviconUrl: draft.faviconUrl || null,
              colorsLight: draft.colorsLight,
              colorsDark: draft.colorsDark,
              footerText: draft.footerText || null,
              customCss: draft.customCss || null,
              docsHostname: draft.docsHostname.trim() || null,
            },
          });
          if (!r.error) setSaved(true);
        }}
      >
        <h2>Theme</h2>
        <Field label="Site name" required maxLength={100} {...text("siteName")} />
        <Field label="Logo URL" type="url" required hint="https:// image" {...text("logoUrl")} />
        <Field label="Favicon URL (optional)" type="url" hint="https:// icon" {...text("faviconUrl")} />
        <PaletteEditor mode="Light" palette={draft.colorsLight} onChange={(colorsLight) => set({ colorsLight })} />
        <PaletteEditor mode="Dark" palette={draft.colorsDark} onChange={(colorsDark) => set({ colorsDark })} />
        <Field label="Footer text" maxLength={500} {...text("footerText")} />
        <div className="field">
          <label htmlFor={cssId}>Custom CSS (appended after the colours, at most 64 KiB)</label>
          <textarea
            id={cssId}
            className="mono"
            rows={6}
            value={draft.customCss}
            onChange={(e) => set({ customCss: e.target.value })}
            aria-invalid={cssError ? true : undefined}
            aria-describedby={cssError ? `${cssId}-error` : undefined}
          />
          {cssError && <FieldError id={`${cssId}-error`}>{cssError}</FieldError>}
        </div>
        <Field
          label="Docs hostname (optional)"
          hint="Lower-case DNS name such as docs.example.com; empty removes it"
          {...text("docsHostname")}
        />
        <button type="submit" className="primary" disabled={save.state.fetching}>
          Save theme
        </button>
        <Message kind="error">{save.error}</Message>
        <Message kind="success">{saved ? "Theme saved: docs sites get it within a minute." : null}</Message>
      </form>
      <div>
        <ThemePreview theme={draft} />
        {theme ? <HostnameStatus theme={theme} /> : <p className="muted">Save the theme to get its URL and loader.</p>}
      </div>
    </div>
  );
}

/** The page: the editor for owners and admins, a notice for members. */
export function DocsThemePage() {
  const { viewer } = useViewer();
  const org = viewer?.viewer.activeOrganization;
  const role = viewer?.viewer.role;
  return (
    <>
      <h1>Docs theme</h1>
      {!viewer ? (
        <p aria-live="polite">Loading…</p>
      ) : !org ? (
        <p>No active organization.</p>
      ) : role === "owner" || role === "admin" ? (
        <Editor organizationId={org.id} />
      ) : (
        <Message kind="info">Only owners and admins edit the docs theme.</Message>
      )}
    </>
  );
}
