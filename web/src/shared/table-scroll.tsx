/** The box of a table that may be wider than a narrow screen. */
import type { ReactNode } from "react";

/**
 * Wraps a table so that, when it is wider than the screen, it scrolls sideways inside this box (`.table-scroll` in
 * styles.css) and the page itself never does. The box is a labelled group (`label`, e.g. "API keys") that takes
 * focus, so the keyboard can scroll it too.
 */
export function TableScroll({ label, children }: { label: string; children: ReactNode }) {
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling box takes focus so arrow keys scroll it (WCAG 2.1.1).
    // biome-ignore lint/a11y/useSemanticElements: a box around a table, not a form's fieldset.
    <div className="table-scroll" role="group" aria-label={label} tabIndex={0}>
      {children}
    </div>
  );
}
