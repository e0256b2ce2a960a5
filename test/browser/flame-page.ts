/**
 * What the flame-graph browser tests share: opening a report page with its
 * console errors and outside requests collected, and reading the tooltips of
 * one chart's frames.
 */
import { pathToFileURL } from 'node:url';
import type { Page } from 'playwright-core';
import type { Browser } from './chromium.ts';

export interface OpenedPage {
  page: Page;
  /** Console errors and warnings, and uncaught page errors. */
  errors: string[];
  /** Requests for anything but the file itself and data: URLs (the page must make none). */
  requests: string[];
}

/** Opens the page at `path` and waits until its script says it is drawn. */
export async function openReport(browser: Browser, path: string): Promise<OpenedPage> {
  const page = await browser.context.newPage();
  const errors: string[] = [];
  const requests: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning') errors.push(`${m.type()}: ${m.text()}`);
  });
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  page.on('request', (r) => {
    if (!r.url().startsWith('file:') && !r.url().startsWith('data:')) requests.push(r.url());
  });
  await page.goto(pathToFileURL(path).href);
  await page.waitForSelector('body[data-ready="true"]', { timeout: 60_000 });
  return { page, errors, requests };
}

/** The tooltips (<title>) of the frames of one chart kind inside a container. */
export function frameTitles(page: Page, container: string, markClass: string): Promise<string[]> {
  return page.$$eval(`${container} .${markClass} rect`, (rects) => rects.map((r) => r.querySelector('title')?.textContent ?? ''));
}
