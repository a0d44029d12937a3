import type { FunctionComponent, JSX } from 'preact';
import type { Capabilities } from './api/capabilities.js';
import type { Route } from './router.js';
import { CustomerPage } from './pages/customer-page.js';
import { CustomersPage } from './pages/customers-page.js';
import { OrderPage } from './pages/order-page.js';
import { OrdersPage } from './pages/orders-page.js';
import { AuditPage } from './pages/audit-page.js';
import { CustomFieldsPage } from './pages/custom-fields-page.js';
import { KeysPage } from './pages/keys-page.js';
import { StatusPage } from './pages/status-page.js';
import { WebhookPage, WebhooksPage } from './pages/webhooks-page.js';

export type PageProps = { route: Route };
type Page = FunctionComponent<PageProps>;

/** The navigation, by the names people and tests use; each shown only to a key that may use it. */
export const NAVIGATION: ReadonlyArray<{ name: string; path: string; allowed: (c: Capabilities) => boolean }> = [
  { name: 'Orders', path: '/orders', allowed: (c) => c.all },
  { name: 'Customers', path: '/customers', allowed: (c) => c.all },
  { name: 'Custom fields', path: '/customfields', allowed: (c) => c.all },
  { name: 'Webhooks', path: '/webhooks', allowed: (c) => c.admin },
  { name: 'API keys', path: '/keys', allowed: (c) => c.admin },
  { name: 'Audit log', path: '/audit', allowed: (c) => c.admin },
  { name: 'Status', path: '/status', allowed: () => true },
];

/** Pages by path pattern; the first match wins. */
const PAGES: ReadonlyArray<{ pattern: RegExp; page: Page; allowed: (c: Capabilities) => boolean }> = [
  { pattern: /^\/orders$/, page: OrdersPage, allowed: (c) => c.all },
  { pattern: /^\/orders\/\d+$/, page: OrderPage, allowed: (c) => c.all },
  { pattern: /^\/customers$/, page: CustomersPage, allowed: (c) => c.all },
  { pattern: /^\/customers\/[^/]+$/, page: CustomerPage, allowed: (c) => c.all },
  { pattern: /^\/customfields$/, page: CustomFieldsPage, allowed: (c) => c.all },
  { pattern: /^\/webhooks$/, page: WebhooksPage, allowed: (c) => c.admin },
  { pattern: /^\/webhooks\/[^/]+$/, page: WebhookPage, allowed: (c) => c.admin },
  { pattern: /^\/keys$/, page: KeysPage, allowed: (c) => c.admin },
  { pattern: /^\/audit$/, page: AuditPage, allowed: (c) => c.admin },
  { pattern: /^\/status$/, page: StatusPage, allowed: () => true },
];

const NotFound = (): JSX.Element => (
  <>
    <h1>Page not found</h1>
    <p>This address is not a page of the console, or the key may not use it.</p>
  </>
);

/** The page of a path (the start page for '/'), or a not-found page. */
export function pageFor(path: string, caps: Capabilities): Page {
  const wanted = path === '/' ? (caps.all ? '/orders' : '/status') : path.replace(/\/+$/, '');
  return PAGES.find((p) => p.pattern.test(wanted) && p.allowed(caps))?.page ?? (path === '/' ? StatusPage : NotFound);
}
