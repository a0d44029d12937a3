import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { startServer, type RunningServer } from '../clients/client-server.js';
import { launchBrowser, noBrowser, screenshotDir, seriousAxeViolations, type Browser, type Session } from '../helpers/browser.js';
import { BACKENDS } from '../helpers/test-store.js';

// The console driven as a person uses it: by roles and visible names (design.md, "The operator
// console"), with data made through the API and every action's effect checked through the API.
// One browser for the file; one server per backend.

const NAV = ['Status'];

async function assertAccessible(page: Page, what: string): Promise<void> {
  const violations = await seriousAxeViolations(page);
  assert.deepEqual(violations, [], `${what}: serious or critical axe-core violations`);
}

describe('the operator console in a real browser (Debian chromium via playwright-core)', { skip: noBrowser }, () => {
  let browser: Browser;
  before(async () => {
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
  });

  for (const backend of BACKENDS) {
    describe(`[${backend}]`, () => {
      let server: RunningServer;
      let session: Session;
      let page: Page;
      const offsite: string[] = [];
      const policyViolations: string[] = [];
      const shot = (name: string): Promise<Buffer> => page.screenshot({ path: join(screenshotDir(), `${name}.png`), fullPage: true });
      const signIn = async (key: string): Promise<void> => {
        await page.getByLabel('API key').fill(key);
        await page.getByRole('button', { name: 'Sign in' }).click();
      };
      const go = async (name: string): Promise<void> => {
        await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name, exact: true }).click();
        await page.getByRole('heading', { level: 1, name }).waitFor();
      };

      before(async () => {
        server = await startServer(backend);
        session = await browser.session();
        page = session.page;
        page.on('request', (r) => {
          if (!r.url().startsWith(server.baseUrl) && !r.url().startsWith('data:') && !r.url().startsWith('blob:')) offsite.push(r.url());
        });
        page.on('console', (m) => {
          if (/Content Security Policy/i.test(m.text())) policyViolations.push(m.text());
        });
      });
      after(async () => {
        assert.deepEqual(offsite, [], 'no request may leave the service (no CDN, no network)');
        assert.deepEqual(policyViolations, [], 'nothing the page does is refused by its CSP');
        // The context goes first: it holds connections to the server open.
        await session?.close();
        await server?.close();
      });

      test('a browser at / lands on the sign-in; a wrong key is refused next to the field; the right one opens the console', async () => {
        await page.goto(`${server.baseUrl}/`);
        assert.equal(new URL(page.url()).pathname, '/console/');
        await page.getByRole('heading', { name: 'ordergate console' }).waitFor();
        await assertAccessible(page, 'sign-in');
        if (backend === BACKENDS[0]) await shot('sign-in');
        await signIn('og_not-a-key-of-this-service');
        const field = page.getByLabel('API key');
        await page.getByText(/API key|Invalid|not valid|unknown/i).and(page.locator('.field-error')).waitFor();
        assert.equal(await field.getAttribute('aria-invalid'), 'true');
        await signIn(server.t.keys.admin);
        const nav = page.getByRole('navigation', { name: 'Main' });
        for (const name of NAV) await nav.getByRole('link', { name, exact: true }).waitFor();
        assert.equal(await page.evaluate(() => sessionStorage.length), 1, 'the key is in sessionStorage');
        assert.equal(await page.evaluate(() => localStorage.length), 0, 'and nowhere else');
        assert.deepEqual(await session.context.cookies(), []);
        assert.doesNotMatch(page.url(), new RegExp(server.t.keys.admin.slice(3, 12)));
      });

      test('Status: readiness, replica, webhook backlog, the last Sequence, version', async () => {
        const put = await server.t.inject({ method: 'PUT', url: '/customer/status-1', payload: { FirstName: 'Stat' } });
        assert.equal(put.statusCode, 200);
        const events = (await server.t.inject('/events/?Take=1000')).json() as Array<{ Sequence: number }>;
        const last = events[events.length - 1]!.Sequence;
        await go('Status');
        const facts = page.locator('dl.facts');
        await facts.waitFor();
        const text = (await facts.innerText()).replace(/\s+/g, ' ');
        assert.match(text, /Readiness Ready/);
        assert.match(text, /Replica lag No read replica/);
        assert.match(text, /Webhook backlog Nothing waiting/);
        assert.match(text, new RegExp(`Last event Sequence ${new Intl.NumberFormat('en-US').format(last)}`));
        assert.match(text, /Version \d+\.\d+\.\d+/);
        await assertAccessible(page, 'Status');
        if (backend === BACKENDS[0]) await shot('status');
      });

      test('Sign out forgets the key: the sign-in is back, also after a reload', async () => {
        await page.getByRole('button', { name: 'Sign out' }).click();
        await page.getByLabel('API key').waitFor();
        assert.equal(await page.evaluate(() => sessionStorage.length), 0);
        await page.reload();
        await page.getByLabel('API key').waitFor();
        await signIn(server.t.keys.admin);
        await page.getByRole('button', { name: 'Sign out' }).waitFor();
      });
    });
  }
});
