import { type MouseEvent, type ReactNode, useSyncExternalStore } from "react";

// A router of a few lines: the dashboard's routes are paths under /dashboard, kept in the
// browser's history; the service answers the page for each of them.

export const BASE = "/dashboard";

const subscribe = (onChange: () => void) => {
  window.addEventListener("popstate", onChange);
  return () => window.removeEventListener("popstate", onChange);
};
const current = () => window.location.pathname + window.location.search;

/** The path after /dashboard (`/orders/ord_1`, or `/` for Home) and the query of the location. */
export function useLocation(): { path: string; search: URLSearchParams } {
  const href = useSyncExternalStore(subscribe, current);
  const url = new URL(href, window.location.origin);
  const path = url.pathname.slice(BASE.length) || "/";
  return { path, search: url.searchParams };
}

export function navigate(to: string, { replace = false } = {}) {
  const href = `${BASE}${to === "/" ? "" : to}`;
  if (replace) window.history.replaceState(null, "", href);
  else window.history.pushState(null, "", href);
  window.dispatchEvent(new PopStateEvent("popstate"));
}

interface LinkProps {
  to: string;
  children: ReactNode;
  className?: string;
  "aria-current"?: "page" | undefined;
}

/** A real link (it opens in a new tab as one), followed without reloading the page. */
export function Link({ to, children, ...rest }: LinkProps) {
  const onClick = (event: MouseEvent<HTMLAnchorElement>) => {
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    navigate(to);
  };
  return (
    <a href={`${BASE}${to === "/" ? "" : to}`} onClick={onClick} {...rest}>
      {children}
    </a>
  );
}
