import type { JSX } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { keyCapabilities, type Capabilities } from './api/capabilities.js';
import { CapabilitiesContext } from './capabilities-context.js';
import { NAVIGATION, pageFor } from './pages.js';
import { SignInPage } from './pages/sign-in-page.js';
import { Link, navigate, useRoute } from './router.js';
import { forgetKey, storedKey, storeKey } from './session.js';
import { ErrorNote, Loading } from './ui/feedback.js';

type Session = { state: 'out' } | { state: 'checking' } | { state: 'in'; caps: Capabilities } | { state: 'failed'; error: unknown };

/** The key's name and permissions as `keys list` writes them; a key that may change nothing says so. */
const permissionsOf = (caps: Capabilities): string => {
  const held = [caps.all && 'all', caps.admin && 'admin', !caps.admin && caps.fulfilment && 'fulfilment', caps.bank && 'bank'].filter(
    Boolean,
  );
  const may = caps.admin || caps.fulfilment ? held : [...held, 'read-only'];
  return `${caps.name}: ${may.join(', ')}`;
};

/** The console: sign-in until a key is known, then the navigation and the page of the address. */
export function App(): JSX.Element {
  const [session, setSession] = useState<Session>(() => (storedKey() ? { state: 'checking' } : { state: 'out' }));
  const route = useRoute();
  useEffect(() => {
    const key = storedKey();
    if (session.state !== 'checking' || !key) return;
    keyCapabilities(key).then(
      (caps) => setSession({ state: 'in', caps }),
      (error: unknown) => {
        forgetKey();
        setSession({ state: 'failed', error });
      },
    );
  }, [session.state]);

  if (session.state === 'checking') return <Loading what="Checking the key…" />;
  if (session.state !== 'in') {
    return (
      <>
        {session.state === 'failed' && <ErrorNote error={session.error} />}
        <SignInPage
          onSignedIn={(key, caps) => {
            storeKey(key);
            setSession({ state: 'in', caps });
            if (route.path === '/') navigate(caps.all ? '/orders' : '/status', true);
          }}
        />
      </>
    );
  }
  const signOut = (): void => {
    forgetKey();
    setSession({ state: 'out' });
    navigate('/', true);
  };
  const { caps } = session;
  const links = NAVIGATION.filter((n) => n.allowed(caps));
  const Page = pageFor(route.path, caps);
  return (
    <CapabilitiesContext.Provider value={caps}>
      <a class="skip-link" href="#main">
        Skip to content
      </a>
      <header class="top">
        <span class="brand">ordergate</span>
        <nav aria-label="Main">
          <ul>
            {links.map((n) => (
              <li key={n.path}>
                <Link to={n.path} aria-current={route.path === n.path || route.path.startsWith(`${n.path}/`) ? 'page' : undefined}>
                  {n.name}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <span class="who">{permissionsOf(caps)}</span>
        <button type="button" class="btn btn-secondary" onClick={signOut}>
          Sign out
        </button>
      </header>
      <main id="main" tabIndex={-1}>
        <Page route={route} />
      </main>
    </CapabilitiesContext.Provider>
  );
}
