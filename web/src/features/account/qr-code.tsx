/**
 * A QR code drawn in the page as SVG (uqr encodes it in the browser): the authenticator URI never leaves the
 * browser for a third-party image service, and the policy's `img-src` needs nothing more.
 */
import { encode } from "uqr";

/** The QR code of `text` (one SVG path of dark modules, 4 light modules of border), `label` read aloud. */
export function QrCode({ text, label }: { text: string; label: string }) {
  const { data, size } = encode(text, { ecc: "M", border: 4 });
  let d = "";
  data.forEach((row, y) => {
    row.forEach((dark, x) => {
      if (dark) d += `M${x} ${y}h1v1h-1z`;
    });
  });
  return (
    <svg
      className="qr"
      role="img"
      aria-label={label}
      viewBox={`0 0 ${size} ${size}`}
      width={size * 5}
      height={size * 5}
      shapeRendering="crispEdges"
    >
      <rect width={size} height={size} fill="#fff" />
      <path d={d} fill="#000" />
    </svg>
  );
}
