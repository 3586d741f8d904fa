/**
 * The theme's CSS rendering (spec "Docs-domain lookup and theme", `?format=css`), free of Node and database imports so
 * the dashboard's theme preview (web/src/features/docs-theming) bundles this very function: the preview shows the CSS the
 * endpoint serves, byte for byte.
 */

/** The theme fields the CSS is made of: colour palettes (name → HSL triple) and the custom CSS. */
export interface ThemeCssInput {
  colorsLight: Record<string, string>;
  colorsDark: Record<string, string>;
  customCss: string | null;
}

/** `primaryForeground` → `--primary-foreground`. */
export function cssVariableName(key: string): string {
  return `--${key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;
}

/** One rule block of colour variables. */
function block(selector: string, colors: Record<string, string>): string {
  const lines = Object.entries(colors).map(([k, v]) => `  ${cssVariableName(k)}: ${v};`);
  return `${selector} {\n${lines.join("\n")}\n}\n`;
}

/**
 * The theme as CSS: `:root { --primary: 222 47% 11%; … }` from `colorsLight`, `.dark { … }` from `colorsDark`,
 * then the custom CSS. Values were validated as HSL triples when saved, so they cannot break out of the rule.
 */
export function themeCss(theme: ThemeCssInput): string {
  const css = `${block(":root", theme.colorsLight)}${block(".dark", theme.colorsDark)}`;
  return theme.customCss ? `${css}\n${theme.customCss}\n` : css;
}
