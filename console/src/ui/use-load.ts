import { useCallback, useEffect, useRef, useState } from 'preact/hooks';

export type Loaded<T> =
  { readonly state: 'loading' } | { readonly state: 'failed'; readonly error: unknown } | { readonly state: 'done'; readonly data: T };

/**
 * Loads data when the page opens and whenever `deps` change; `reload` asks again (after an action)
 * and keeps showing what was loaded until the answer comes, so that the page (and the focus in it)
 * stays where it was.
 */
export function useLoad<T>(load: () => Promise<T>, deps: readonly unknown[]): [Loaded<T>, () => void] {
  const [loaded, setLoaded] = useState<Loaded<T>>({ state: 'loading' });
  const [round, setRound] = useState(0);
  const lastRound = useRef(round);
  useEffect(() => {
    let live = true;
    const reloading = lastRound.current !== round;
    lastRound.current = round;
    if (!reloading) setLoaded({ state: 'loading' });
    load().then(
      (data) => live && setLoaded({ state: 'done', data }),
      (error: unknown) => live && setLoaded({ state: 'failed', error }),
    );
    return () => {
      live = false;
    };
  }, [...deps, round]);
  const reload = useCallback(() => setRound((r) => r + 1), []);
  return [loaded, reload];
}
