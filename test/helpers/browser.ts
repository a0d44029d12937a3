import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';
const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** .ci/run installs Debian's chromium when it is missing; only where that is impossible do browser tests skip, saying why. */
export const noBrowser: string | false = existsSync(CHROMIUM)
  ? false
  : `no browser at ${CHROMIUM}: install Debian's chromium (apt-get install -y chromium) to run the browser tests`;

/** One headless Chromium for a test file; each `session` is a context of its own (cookies, storage, connections). */
export interface Browser {
  session(): Promise<Session>;
  close(): Promise<void>;
}

/** A tab in a fresh context; `close` ends the context and with it every connection it held. */
export interface Session {
  readonly context: BrowserContext;
  readonly page: Page;
  close(): Promise<void>;
}

export async function launchBrowser(): Promise<Browser> {
  // headless: false keeps playwright from adding its own headless switches: ours are in FLAGS.
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: false, args: FLAGS });
  return {
    async session() {
      const context = await browser.newContext({ viewport: { width: 1280, height: 860 } });
      const page = await context.newPage();
      page.setDefaultTimeout(20_000);
      return { context, page, close: () => context.close() };
    },
    close: () => browser.close(),
  };
}

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export interface AxeViolation {
  readonly id: string;
  readonly impact: string | null;
  readonly help: string;
  readonly targets: string[];
}

/**
 * axe-core's serious and critical violations on the page as it is now. The script goes in through
 * the DevTools protocol, which the page's CSP does not govern: the page itself allows no inline script.
 */
export async function seriousAxeViolations(page: Page): Promise<AxeViolation[]> {
  await page.evaluate(axeSource);
  const violations = await page.evaluate(async () => {
    const axe = (
      globalThis as unknown as {
        axe: {
          run(
            ctx: Document,
            opts: object,
          ): Promise<{ violations: Array<{ id: string; impact: string | null; help: string; nodes: Array<{ target: unknown[] }> }> }>;
        };
      }
    ).axe;
    const result = await axe.run(document, { resultTypes: ['violations'] });
    return result.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, targets: v.nodes.map((n) => String(n.target[0])) }));
  });
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

/** Where screenshots go: CONSOLE_SCREENSHOTS (docs/console to refresh the docs' pictures) or artifacts/console. */
export function screenshotDir(): string {
  const dir = process.env.CONSOLE_SCREENSHOTS ?? join('artifacts', 'console');
  mkdirSync(dir, { recursive: true });
  return dir;
}
