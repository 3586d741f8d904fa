/**
 * Live preview of a sample docs page with the theme being edited. The theme's CSS comes from `themeCss` of
 * src/modules/docs-theming/docs-theme.render.ts, the function the theme endpoint (`?format=css`) renders with, so the
 * preview holds the very CSS docs sites receive. The page is a sandboxed `srcdoc` frame (no scripts), in light or
 * dark mode (the `dark` class, as the loader and docs sites use it).
 */
import { useId, useState } from "react";
import { themeCss } from "../../../../src/modules/docs-theming/docs-theme.render.ts";

/** What the preview shows. */
export interface PreviewTheme {
  siteName: string;
  logoUrl: string;
  faviconUrl: string;
  footerText: string;
  colorsLight: Record<string, string>;
  colorsDark: Record<string, string>;
  customCss: string;
}

/** Only https:// URLs are previewed: the API accepts nothing else, and the page's CSP loads no other image. */
export function previewable(url: string): boolean {
  return /^https:\/\/[^\s]+$/i.test(url.trim());
}

const escapeHtml = (s: string) =>
  s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

/** The sample page's default look (a docs site's own stylesheet, using the theme's variables). */
const BASE_CSS = `body { font: 15px/1.5 system-ui, sans-serif; margin: 0; color: #1f2328; background: #fff; }
.dark body { color: #e6edf3; background: #0d1117; }
nav { display: flex; align-items: center; gap: .5rem; padding: .6rem 1rem; border-bottom: 1px solid #8884; }
nav img { height: 28px; max-width: 120px; }
main { padding: 1rem; } h1 { margin-top: 0; }
a { color: hsl(var(--primary)); }
.button { display: inline-block; padding: .4rem .9rem; border-radius: 6px; text-decoration: none;
  background: hsl(var(--primary)); color: hsl(var(--primary-foreground, 0 0% 100%)); }
.callout { border-left: 4px solid hsl(var(--accent, var(--primary))); padding: .3rem .8rem; margin: 1rem 0; }
footer { padding: .6rem 1rem; border-top: 1px solid #8884; font-size: 13px; }`;

/** The sample docs page as an HTML document. */
export function previewDocument(theme: PreviewTheme, dark: boolean): string {
  const css = themeCss({
    colorsLight: theme.colorsLight,
    colorsDark: theme.colorsDark,
    customCss: theme.customCss || null,
  });
  const logo = previewable(theme.logoUrl)
    ? `<img data-docs-theme="logo" src="${escapeHtml(theme.logoUrl)}" alt="">`
    : "";
  return `<!doctype html><html${dark ? ' class="dark"' : ""}><head><meta charset="utf-8"><title>${escapeHtml(theme.siteName)}</title>
<style>${BASE_CSS}</style><style id="skiff-docs-theme">${css.replace(/<\/style/gi, "<\\/style")}</style></head>
<body><nav>${logo}<strong data-docs-theme="site-name">${escapeHtml(theme.siteName || "Docs")}</strong></nav>
<main><h1>Getting started</h1><p>Install the SDK, then read the <a href="#guide">guide</a>.</p>
<div class="callout">Tip: colours come from the theme's variables.</div>
<a class="button" id="cta" href="#start">Get started</a></main>
<footer data-docs-theme="footer">${escapeHtml(theme.footerText)}</footer></body></html>`;
}

/** The preview card with its light/dark switch. */
export function ThemePreview({ theme }: { theme: PreviewTheme }) {
  const [dark, setDark] = useState(false);
  const name = useId();
  return (
    <section className="card" aria-labelledby={`${name}-title`} data-testid="theme-preview">
      <h2 id={`${name}-title`}>Preview</h2>
      <fieldset className="row">
        <legend className="sr-only">Preview mode</legend>
        <label className="check">
          <input type="radio" name={name} checked={!dark} onChange={() => setDark(false)} /> Light
        </label>
        <label className="check">
          <input type="radio" name={name} checked={dark} onChange={() => setDark(true)} /> Dark
        </label>
      </fieldset>
      <iframe
        title="Preview of a docs page with this theme"
        sandbox="allow-same-origin"
        srcDoc={previewDocument(theme, dark)}
        className="theme-preview"
      />
      {(previewable(theme.logoUrl) || previewable(theme.faviconUrl)) && (
        <div className="row">
          {previewable(theme.logoUrl) && (
            <figure>
              <img src={theme.logoUrl} alt="Logo preview" className="logo-preview" />
              <figcaption className="muted">Logo</figcaption>
            </figure>
          )}
          {previewable(theme.faviconUrl) && (
            <figure>
              <img src={theme.faviconUrl} alt="Favicon preview" className="favicon-preview" />
              <figcaption className="muted">Favicon</figcaption>
            </figure>
          )}
        </div>
      )}
    </section>
  );
}
