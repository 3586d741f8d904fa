/**
 * A minimal client-side router over the History API: the server answers every page path with the same
 * `index.html` (src/server/web.ts), and {@link Link}/{@link navigate} switch pages without reloading.
 */
import { type AnchorHTMLAttributes, useEffect, useState } from "react";

/** Moves to `to` (path and query) without reloading. */
export function navigate(to: string, replace = false): void {
  if (replace) history.replaceState(null, "", to);
  else history.pushState(null, "", to);
  dispatchEvent(new PopStateEvent("popstate"));
}

/** The current `location.pathname` and `location.search`, re-rendered on navigation. */
export function useLocation(): { path: string; query: URLSearchParams } {
  const [, setTick] = useState(0);
  useEffect(() => {
    const onPop = () => setTick((t) => t + 1);
    addEventListener("popstate", onPop);
    return () => removeEventListener("popstate", onPop);
  }, []);
  return { path: location.pathname, query: new URLSearchParams(location.search) };
}

/** An `<a>` that navigates in the app (a real link: opens in a new tab with the usual keys). */
export function Link({ href, onClick, ...rest }: AnchorHTMLAttributes<HTMLAnchorElement> & { href: string }) {
  return (
    <a
      {...rest}
      href={href}
      onClick={(e) => {
        onClick?.(e);
        if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
        e.preventDefault();
        navigate(href);
      }}
    />
  );
}
