import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { after, before, describe } from 'node:test';
import type { Page } from 'playwright-core';
import { startServer, type RunningServer } from '../clients/client-server.js';
import { launchBrowser, noBrowser, screenshotDir, seriousAxeViolations, type Browser, type Session } from '../helpers/browser.js';
import { BACKENDS, type Backend } from '../helpers/test-store.js';

/** Names of the navigation (design.md, "The operator console"). */
export const NAV = ['Orders', 'Customers', 'Custom fields', 'Webhooks', 'API keys', 'Audit log', 'Status'];
export const ADMIN_ONLY = ['Webhooks', 'API keys', 'Audit log'];
/** Text shaped like an ISO 8601 moment (`2024-03-01T10:00`, `10:00:00.000Z`): a date as the API wrote it, not as the page should. */
export const ISO_MOMENT = /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}|\d{2}:\d{2}:\d{2}(\.\d+)?Z/;
/** A customer name that must stay text. */
export const HOSTILE = '<img src=x onerror="window.__pwned=1">';

/** What a console test works with: the server of its backend, the tab, and the moves a person makes. */
export interface ConsoleContext {
  readonly backend: Backend;
  readonly server: RunningServer;
  readonly page: Page;
  readonly session: Session;
  /** A local webhook receiver answering 500 (webhook URLs to 127.0.0.1 are allowed in these servers). */
  readonly receiver: Server;
  readonly signIn: (key: string) => Promise<void>;
  /** Follows a navigation link and waits for the page's heading. */
  readonly go: (name: string) => Promise<void>;
  /** A full-page screenshot for docs/console.md, taken on the first backend only. */
  readonly shot: (name: string) => Promise<void>;
  readonly assertAccessible: (what: string) => Promise<void>;
  /** No date on the page's main part is left as the API wrote it (ISO 8601): dates are in the browser's locale. */
  readonly assertDatesFormatted: (what: string) => Promise<void>;
}

/**
 * One browser for the test file; per backend a server, a fresh browser context and a receiver.
 * After each backend's tests: no request left the service and the page's CSP refused nothing.
 */
export function describeConsole(title: string, suite: (c: () => ConsoleContext) => void, options: { signedIn?: boolean } = {}): void {
  describe(`${title} (Debian chromium via playwright-core)`, { skip: noBrowser }, () => {
    let browser: Browser;
    before(async () => {
      browser = await launchBrowser();
    });
    after(async () => {
      await browser?.close();
    });
    for (const backend of BACKENDS) {
      describe(`[${backend}]`, () => {
        let ctx: ConsoleContext | undefined;
        const offsite: string[] = [];
        const refused: string[] = [];
        before(async () => {
          const receiver = createServer((req, res) => {
            req.resume();
            req.on('end', () => res.writeHead(500).end('receiver down'));
          });
          await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
          const server = await startServer(backend, { WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_POLL_MS: '50' });
          const session = await browser.session();
          const { page } = session;
          page.on('request', (r) => {
            if (!r.url().startsWith(server.baseUrl) && !/^(data|blob):/.test(r.url())) offsite.push(r.url());
          });
          page.on('console', (m) => {
            if (/Content Security Policy/i.test(m.text())) refused.push(m.text());
          });
          ctx = {
            backend,
            server,
            page,
            session,
            receiver,
            async signIn(key) {
              await page.getByLabel('API key').fill(key);
              await page.getByRole('button', { name: 'Sign in' }).click();
            },
            async go(name) {
              await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name, exact: true }).click();
              await page.getByRole('heading', { level: 1, name }).waitFor();
            },
            async shot(name) {
              if (backend === BACKENDS[0]) await page.screenshot({ path: join(screenshotDir(), `${name}.png`), fullPage: true });
            },
            async assertAccessible(what) {
              assert.deepEqual(await seriousAxeViolations(page), [], `${what}: serious or critical axe-core violations`);
            },
            async assertDatesFormatted(what) {
              const text = await page.locator('main').innerText();
              assert.doesNotMatch(text, ISO_MOMENT, `${what}: a date as the API wrote it`);
            },
          };
          if (options.signedIn) {
            await page.goto(`${server.baseUrl}/console/`);
            await ctx.signIn(server.t.keys.admin);
            await page.getByRole('button', { name: 'Sign out' }).waitFor();
          }
        });
        after(async () => {
          assert.deepEqual(offsite, [], 'no request may leave the service (no CDN, no network)');
          assert.deepEqual(refused, [], 'nothing the page does is refused by its CSP');
          // The context goes first: it holds connections to the server open.
          await ctx?.session.close();
          await ctx?.server.close();
          await new Promise((resolve) => ctx?.receiver.close(resolve));
        });
        suite(() => {
          if (!ctx) throw new Error('console suite not ready');
          return ctx;
        });
      });
    }
  });
}
