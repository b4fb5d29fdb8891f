/**
 * Real headless Chromium for page tests (playwright-core drives the Debian
 * build at /usr/bin/chromium). Each launch gets a fresh profile directory and
 * the flags that keep Chromium from calling out to the network, and every
 * page records console output, page errors and CSP violations so tests can
 * assert there were none.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export interface WatchedPage {
  page: Page;
  /** Every console message, as "type: text". The pages under test log nothing. */
  console: string[];
  /** Uncaught exceptions in the page. */
  errors: string[];
  /** Content-Security-Policy violations seen by the page (directive and blocked URI). */
  cspViolations(): Promise<string[]>;
}

export interface Browser {
  context: BrowserContext;
  /** Opens a page; `beforeScripts` runs in it before any of the page's own scripts. */
  open(url: string, beforeScripts?: () => void): Promise<WatchedPage>;
  close(): Promise<void>;
}

/** Records `securitypolicyviolation` events; injected by the browser driver, so the page's CSP does not apply to it. */
function recordViolations() {
  const seen: string[] = [];
  (window as unknown as { __cspViolations: string[] }).__cspViolations = seen;
  document.addEventListener('securitypolicyviolation', (event) => {
    seen.push(`${event.effectiveDirective} ${event.blockedURI}`);
  });
}

export async function launchBrowser(options: { javaScriptEnabled?: boolean } = {}): Promise<Browser> {
  const profile = await mkdtemp(path.join(tmpdir(), 'ak-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: ARGS,
    javaScriptEnabled: options.javaScriptEnabled ?? true,
  });
  await context.addInitScript(recordViolations);
  return {
    context,
    async open(url: string, beforeScripts?: () => void) {
      const page = await context.newPage();
      if (beforeScripts) await page.addInitScript(beforeScripts);
      const watched: WatchedPage = {
        page,
        console: [],
        errors: [],
        async cspViolations() {
          const fromEvents =
            options.javaScriptEnabled === false
              ? []
              : await page.evaluate(() => (window as unknown as { __cspViolations?: string[] }).__cspViolations ?? []);
          const fromConsole = watched.console.filter((line) => /Content Security Policy/i.test(line));
          return [...fromEvents, ...fromConsole];
        },
      };
      page.on('console', (message) => watched.console.push(`${message.type()}: ${message.text()}`));
      page.on('pageerror', (error) => watched.errors.push(error.message));
      await page.goto(url);
      return watched;
    },
    async close() {
      await context.close();
      await rm(profile, { recursive: true, force: true });
    },
  };
}
