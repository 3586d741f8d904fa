/**
 * Validation of the docs theme (spec "Docs-domain lookup and theme") and of synchronised hostnames, with zod: every
 * invalid field becomes an entry of BAD_USER_INPUT's `fieldErrors` (`colorsLight.primary`, `logoUrl`, …).
 */
import { z } from "zod";
import { URL_TEXT, URL_TEXT_MESSAGE } from "../../shared/input-fields.ts";

/** Largest custom CSS accepted, in bytes (UTF-8). */
export const MAX_CUSTOM_CSS_BYTES = 64 * 1024;

/** A lower-case DNS name with at least two labels (`docs.acme.com`). */
export const HOSTNAME_RE =
  /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/** A space-separated HSL triple: hue 0–360, saturation and lightness 0–100 %. */
const HSL_RE = /^(\d{1,3}(?:\.\d+)?) (\d{1,3}(?:\.\d+)?)% (\d{1,3}(?:\.\d+)?)%$/;

/** True when `value` is an HSL triple such as `222 47% 11%`. */
export function isHslTriple(value: unknown): boolean {
  const m = typeof value === "string" ? HSL_RE.exec(value) : null;
  return !!m && Number(m[1]) <= 360 && Number(m[2]) <= 100 && Number(m[3]) <= 100;
}

/** Keys outside the theme (spec: typography, corner radius, borders and neutral surfaces are not part of it). */
const EXCLUDED: { re: RegExp; what: string }[] = [
  { re: /font|typograph|lineheight|letterspacing|textsize/i, what: "Typography is" },
  { re: /radius|rounded/i, what: "Corner radius is" },
  { re: /border|^input$|^ring$/i, what: "Borders are" },
  { re: /^(background|foreground|card|popover|muted|surface|neutral)/i, what: "Neutral surfaces are" },
];

/** The reason `key` may not be a colour entry, or null. */
function excludedKey(key: string): string | null {
  const hit = EXCLUDED.find((e) => e.re.test(key));
  return hit
    ? `${hit.what} not part of the theme: only primary and accent colours (e.g. primary, primaryForeground, accent)`
    : null;
}

const colors = z.record(z.string(), z.unknown()).superRefine((value, ctx) => {
  const keys = Object.keys(value);
  if (keys.length > 32) ctx.addIssue({ code: "custom", message: "At most 32 colour entries" });
  if (!("primary" in value)) ctx.addIssue({ code: "custom", path: ["primary"], message: "Required" });
  for (const key of keys) {
    const excluded = excludedKey(key);
    if (excluded) ctx.addIssue({ code: "custom", path: [key], message: excluded });
    else if (!/^[a-z][a-zA-Z0-9]{0,39}$/.test(key))
      ctx.addIssue({ code: "custom", path: [key], message: "Colour names are camelCase letters and digits" });
    else if (!isHslTriple(value[key]))
      ctx.addIssue({
        code: "custom",
        path: [key],
        message: "Must be a space-separated HSL triple such as `222 47% 11%`",
      });
  }
}) as unknown as z.ZodType<Record<string, string>>;

const httpsUrl = z
  .string()
  .max(2048)
  .regex(URL_TEXT, URL_TEXT_MESSAGE)
  .refine((v) => URL.canParse(v) && new URL(v).protocol === "https:", { message: "Must be an https:// URL" });

const hostname = z
  .string()
  .max(253)
  .superRefine((v, ctx) => {
    if (v !== v.toLowerCase()) ctx.addIssue({ code: "custom", message: "Must be lower case" });
    else if (!HOSTNAME_RE.test(v))
      ctx.addIssue({ code: "custom", message: "Must be a DNS name such as docs.example.com" });
  });

/** `setDocsTheme`'s input. */
export const docsThemeInput = z.object({
  siteName: z.string().trim().min(1, "Required").max(100),
  logoUrl: httpsUrl,
  faviconUrl: httpsUrl.nullish().transform((v) => v ?? null),
  colorsLight: colors,
  colorsDark: colors,
  footerText: z
    .string()
    .max(1000)
    .nullish()
    .transform((v) => v ?? ""),
  customCss: z
    .string()
    .refine((v) => Buffer.byteLength(v, "utf8") <= MAX_CUSTOM_CSS_BYTES, { message: "At most 64 KiB" })
    .nullish()
    .transform((v) => (v ? v : null)),
  docsHostname: hostname.nullish().transform((v) => v || null),
});

/** A validated theme. */
export type DocsThemeInput = z.output<typeof docsThemeInput>;

/** The body of a synchronisation: at most 1000 distinct hostnames with the URL of their owning instance. */
export const syncInput = z
  .array(
    z.object({
      hostname,
      cloudUrl: z
        .string()
        .max(2048)
        .refine((v) => URL.canParse(v) && /^https?:$/.test(new URL(v).protocol), { message: "Must be an http(s) URL" }),
    }),
  )
  .max(1000)
  .refine((list) => new Set(list.map((e) => e.hostname)).size === list.length, {
    message: "Each hostname at most once",
  });
