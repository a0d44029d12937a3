import type { ComponentChildren, JSX } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { consoleRoot } from './base-path.js';

// The console's own few routes need no router library: history.pushState and one event. Paths
// here are relative to <BASE_PATH>/console; the query string carries a page's state (filters).

export interface Route {
  /** The path below the console's root, always starting with '/'. */
  readonly path: string;
  readonly query: URLSearchParams;
}

const current = (): Route => {
  const { pathname, search } = window.location;
  const rest = pathname.toLowerCase().startsWith(consoleRoot.toLowerCase()) ? pathname.slice(consoleRoot.length) : pathname;
  return { path: rest === '' ? '/' : rest, query: new URLSearchParams(search) };
};

const CHANGE = 'ordergate:navigate';

/** The address of a console path, for links and history. */
export const href = (to: string): string => consoleRoot + to;

/** Goes to a console path (with its query); `replace` for a change of the same page's state. */
export function navigate(to: string, replace = false): void {
  if (replace) history.replaceState(null, '', href(to));
  else history.pushState(null, '', href(to));
  window.dispatchEvent(new Event(CHANGE));
}

/** The current route; re-renders on every navigation, the browser's back and forward included. */
export function useRoute(): Route {
  const [route, setRoute] = useState(current);
  useEffect(() => {
    const update = (): void => setRoute(current());
    window.addEventListener('popstate', update);
    window.addEventListener(CHANGE, update);
    return () => {
      window.removeEventListener('popstate', update);
      window.removeEventListener(CHANGE, update);
    };
  }, []);
  return route;
}

/** A link inside the console: a real <a href> (opens in a new tab too), followed without a reload. */
export function Link({
  to,
  children,
  ...rest
}: { to: string; children: ComponentChildren } & Omit<JSX.HTMLAttributes<HTMLAnchorElement>, 'href'>): JSX.Element {
  const follow = (e: MouseEvent): void => {
    if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    e.preventDefault();
    navigate(to);
  };
  return (
    <a {...rest} href={href(to)} onClick={follow}>
      {children}
    </a>
  );
}
