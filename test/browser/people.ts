// Helpers for browser tests that use the pages only, as a person would: sign up, log in, click, check with axe-core.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Locator, type Page } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';
const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync'];
export const OUTPUT = resolve('test-output/browser');
// axe-core's own bundle, evaluated in the page by the DevTools protocol (which the page's CSP does not govern).
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export async function launch(): Promise<Browser> {
  await mkdir(OUTPUT, { recursive: true });
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, headless: true });
}

export interface Person {
  context: BrowserContext;
  page: Page;
  /** Script errors and dialogs the page raised: a hostile string that ran would land here. */
  problems: string[];
}

export async function openPerson(browser: Browser, javaScriptEnabled = true, width = 1100): Promise<Person> {
  const context = await browser.newContext({ javaScriptEnabled, viewport: { width, height: 800 } });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
  page.on('dialog', (dialog) => {
    problems.push(`dialog: ${dialog.message()}`);
    void dialog.dismiss();
  });
  return { context, page, problems };
}

/** Clicks and waits for the page it leads to (a form post's 303 included). */
export async function follow(page: Page, target: Locator): Promise<void> {
  const [response] = await Promise.all([page.waitForNavigation(), target.click()]);
  assert.ok(response !== null, `clicking ${String(target)} loaded a page`);
  assert.ok(response.status() < 400, `${response.url()} answered ${response.status()}`);
}

/**
 * Signs up on the landing page, which signs the new person in (docs/html.md, Sign-up from a page); ends on the chat
 * list. (The name is older than that: it once went on through the login form.)
 */
export async function signUpAndLogIn(person: Person, url: string, login: string, password: string): Promise<void> {
  const { page } = person;
  await page.goto(`${url}/`);
  await page.fill('#signup-login', login);
  await page.fill('#signup-password', password);
  await follow(page, page.getByRole('button', { name: 'Sign up' }));
  assert.equal(new URL(page.url()).pathname, '/chats');
}

/** Logs in on the login form (the account exists); ends on the chat list. */
export async function logIn(person: Person, url: string, login: string, password: string): Promise<void> {
  const { page } = person;
  if (new URL(page.url()).pathname !== '/session') await page.goto(`${url}/session`);
  await page.fill('input[name="login"]', login);
  await page.fill('input[name="password"]', password);
  await follow(page, page.getByRole('button', { name: 'Log in' }));
  assert.equal(new URL(page.url()).pathname, '/chats');
}

/** axe-core in Chromium: no serious or critical violation on the page as it is now. */
export async function assertAccessible(page: Page, what: string): Promise<void> {
  if (!(await page.evaluate('typeof window.axe === "object"'))) await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate(async () => {
    // The page's globals (no DOM types in this project's TypeScript settings).
    const scope = globalThis as unknown as { document: unknown; axe: { run(context: unknown, options: object): Promise<{ violations: { id: string; impact: string; help: string; nodes: { html: string }[] }[] }> } };
    const result = await scope.axe.run(scope.document, { resultTypes: ['violations'] });
    return result.violations.map((violation) => ({ id: violation.id, impact: violation.impact, help: violation.help, nodes: violation.nodes.slice(0, 3).map((node) => node.html) }));
  });
  const serious = violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical');
  assert.deepEqual(serious, [], `${what}: axe-core found serious or critical violations`);
}

/** Nothing wider than the window: the page never scrolls sideways (at 320 px, a small phone). */
export async function assertNoHorizontalOverflow(page: Page, what: string): Promise<void> {
  const widths = await page.evaluate(() => {
    interface Box { right: number }
    interface Element { outerHTML: string; parentElement: Element | null; getBoundingClientRect(): Box }
    const { document } = globalThis as unknown as { document: { documentElement: { clientWidth: number; scrollWidth: number }; body: { querySelectorAll(selector: string): Iterable<Element> } } };
    const client = document.documentElement.clientWidth;
    // The outermost elements that reach past the window, to say what to fix.
    const wide = [...document.body.querySelectorAll('*')].filter((element) => element.getBoundingClientRect().right > client + 0.5)
      .filter((element) => !(element.parentElement && element.parentElement.getBoundingClientRect().right > client + 0.5))
      .slice(0, 5).map((element) => element.outerHTML.slice(0, 120));
    return { scroll: document.documentElement.scrollWidth, client, wide };
  });
  assert.ok(widths.scroll <= widths.client, `${what}: the page is ${widths.scroll} px wide in a ${widths.client} px window: ${widths.wide.join(' | ')}`);
}

export async function screenshot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: join(OUTPUT, name), fullPage: true });
}
