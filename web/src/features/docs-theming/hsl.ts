/**
 * Conversions between the HSL triples the docs theme stores (`222 47% 11%`: hue in degrees, saturation and
 * lightness in percent) and the `#rrggbb` values of `<input type="color">`.
 */

/** `h s% l%` → [h, s, l], or null when `value` is not a triple. */
export function parseHsl(value: string): [number, number, number] | null {
  const m = /^(\d{1,3}(?:\.\d+)?) (\d{1,3}(?:\.\d+)?)% (\d{1,3}(?:\.\d+)?)%$/.exec(value.trim());
  if (!m) return null;
  const [h, s, l] = [Number(m[1]), Number(m[2]), Number(m[3])];
  return h <= 360 && s <= 100 && l <= 100 ? [h, s, l] : null;
}

/** An HSL triple as `#rrggbb` (black when it does not parse). */
export function hslToHex(value: string): string {
  const hsl = parseHsl(value);
  if (!hsl) return "#000000";
  const [h, s, l] = [hsl[0], hsl[1] / 100, hsl[2] / 100];
  const a = s * Math.min(l, 1 - l);
  const f = (n: number) => {
    const k = (n + h / 30) % 12;
    const c = l - a * Math.max(-1, Math.min(k - 3, 9 - k, 1));
    return Math.round(c * 255)
      .toString(16)
      .padStart(2, "0");
  };
  return `#${f(0)}${f(8)}${f(4)}`;
}

/** `#rrggbb` as an HSL triple with whole numbers (`222 47% 11%`). */
export function hexToHsl(hex: string): string {
  const n = Number.parseInt(hex.replace("#", ""), 16);
  const [r, g, b] = [(n >> 16) & 255, (n >> 8) & 255, n & 255].map((v) => v / 255) as [number, number, number];
  const max = Math.max(r, g, b);
  const min = Math.min(r, g, b);
  const l = (max + min) / 2;
  const d = max - min;
  let h = 0;
  let s = 0;
  if (d !== 0) {
    s = d / (1 - Math.abs(2 * l - 1));
    if (max === r) h = 60 * (((g - b) / d) % 6);
    else if (max === g) h = 60 * ((b - r) / d + 2);
    else h = 60 * ((r - g) / d + 4);
  }
  if (h < 0) h += 360;
  return `${Math.round(h)} ${Math.round(s * 100)}% ${Math.round(l * 100)}%`;
}
