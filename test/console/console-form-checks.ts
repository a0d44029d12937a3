import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';

// What a console test reads of a form as a person (or a screen reader) meets it: the message tied
// to an input, and where the focus is.

/** The message shown under an input (by its accessible name, within `scope`), once the page marked it invalid. */
export async function errorUnder(page: Page, label: string, scope: Pick<Page, 'getByLabel'> = page): Promise<string> {
  const input = scope.getByLabel(label, { exact: true });
  await page.waitForFunction((el) => el?.getAttribute('aria-invalid') === 'true', await input.elementHandle());
  const describedBy = await input.getAttribute('aria-describedby');
  assert.ok(describedBy, `${label}: its message is tied to it`);
  return page.locator(`[id="${describedBy.split(' ').pop()!}"]`).innerText();
}

/** Waits until the focused element has this accessible name (label, aria-label or text): focus moves after a render. */
export async function assertFocus(page: Page, name: string, why: string): Promise<void> {
  const named = () =>
    page.evaluate(() => {
      const el = document.activeElement;
      if (!el) return null;
      const label = el.id ? document.querySelector(`label[for="${el.id}"]`)?.textContent : null;
      return el.getAttribute('aria-label') ?? label ?? el.textContent;
    });
  for (let i = 0; i < 50; i++) {
    if ((await named()) === name) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  assert.equal(await named(), name, why);
}
