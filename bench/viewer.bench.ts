/**
 * The diagnostic viewer in Debian's Chromium on a stored 500-slice CT: how long from choosing the
 * series to its first image drawn (the viewer's chunk, the series metadata and the middle frame),
 * until every slice is loaded, how fast the loaded stack scrolls, how long the three MPR planes take,
 * and the page's memory after.
 *
 * `BENCH_SCREENSHOTS=<folder>`: also saves the reading room and its MPR at 1366 × 768 there.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright';
import type { Image } from '@ra/shared';
import { CHROMIUM_LAUNCH } from '../e2e/chromium.js';
import type { Api } from './lib/api.js';

const DEMO_PATIENT = { email: 'patient@example.com', password: 'demo-password' };
const SCROLL_STEPS = 100;
/**
 * In the page (the bench is typed without the DOM): steps through the stack with the keys, one
 * press per drawn slice, and answers the milliseconds it took.
 */
const STEP_THROUGH_STACK = `(async () => {
  const stage = document.querySelector('[data-testid="viewer-stage"]');
  const begin = performance.now();
  for (let step = 0; step < ${SCROLL_STEPS}; step += 1) {
    const before = stage.getAttribute('data-slice');
    stage.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowDown', bubbles: true }));
    while (stage.getAttribute('data-slice') === before) {
      await new Promise((resolve) => setTimeout(resolve, 0));
    }
  }
  return performance.now() - begin;
})()`;
/**
 * In the page: the requests since \`since\` (page milliseconds), each with when it started and
 * ended, so the bench can print where the time to the first image went.
 */
const REQUESTS_SINCE = (since: number) => `performance
  .getEntriesByType('resource')
  .filter((entry) => entry.startTime >= ${since})
  .map((entry) => ({
    name: new URL(entry.name).pathname,
    start: entry.startTime - ${since},
    end: entry.responseEnd - ${since},
  }))`;
/** In the page: keeps the time of the next click. */
const MARK_THE_CLICK = `document.addEventListener('click', () => performance.mark('bench:click'), {
  capture: true,
  once: true,
})`;
/** In the page: the click's time and the time the viewer drew its first image (its own mark). */
const CLICK_AND_FIRST_IMAGE = `[
  performance.getEntriesByName('bench:click').at(-1).startTime,
  performance.getEntriesByName('viewer:first-image').at(-1).startTime,
]`;
/** In the page: when the viewer drew its first image, in milliseconds from navigation start. */
const FIRST_IMAGE_SINCE_NAVIGATION = `performance.getEntriesByName('viewer:first-image').at(-1).startTime`;
/** Chromium's heap figure (precise with --enable-precise-memory-info). */
const READ_HEAP = 'performance.memory ? performance.memory.usedJSHeapSize : 0';

type Requests = { name: string; start: number; end: number }[];

export interface ViewerFigures {
  slices: number;
  /**
   * From the click that opens the study in the image library until its first image is drawn, by
   * the page's clock, in a new browser: clicked as soon as the link shows (the viewer's code, which
   * the library fetches while idle, still arriving), clicked once the library has settled, and
   * opened again with everything but the images cached.
   */
  firstImageAtOnceMs: number;
  firstImageSettledMs: number;
  firstImageAgainMs: number;
  /**
   * A cold link: the study's page opened directly in a new browser context (as from an email or a
   * key-image link), from navigation start to the first image drawn, by the page's clock.
   */
  coldLinkMs: number;
  /**
   * A share link (no access code) opened by someone without an account in a new browser, from
   * navigation start to the first image drawn, by the page's clock.
   */
  shareLinkMs: number;
  /** From the settled opening's click until every slice is decoded. */
  allLoadedMs: number;
  /** Slices drawn per second while the keys step through the loaded stack. */
  scrollPerSecond: number;
  /**
   * From the click on MPR, the stack loaded, until the volume is built and drawn in the three
   * planes (the view says it is ready).
   */
  mprReadyMs: number;
  /** The page's JavaScript heap after loading the whole series, in MB. */
  heapMb: number;
  /** The requests of the settled opening until its first image, in milliseconds from the click. */
  requests: Requests;
}

export async function viewerFigures(
  patient: Api,
  patientUid: string,
  slices: number,
): Promise<ViewerFigures> {
  const { images } = await patient.json<{ images: Image[] }>('GET', `/api/user/${patientUid}/images`);
  const study = images.find((image) => image.study?.instance_count === slices);
  if (!study) {
    throw new Error(`no study of ${slices} instances to open`);
  }
  const browser = await chromium.launch({
    ...CHROMIUM_LAUNCH,
    args: [...CHROMIUM_LAUNCH.args, '--enable-precise-memory-info'],
  });
  /** A new browser context (nothing cached), signed in as the patient. */
  const newPage = async () => {
    const context = await browser.newContext({
      baseURL: patient.base,
      viewport: { width: 1400, height: 1000 },
    });
    await context.request.post('/api/auth/signin', { data: DEMO_PATIENT });
    return { context, page: await context.newPage() };
  };
  /** Opens the study from the image library, as a user does. */
  const openStudy = async (page: Page, settle: boolean) => {
    await page.goto('/imagelibrary');
    const view = page.getByRole('link', { name: 'View' }).and(page.locator(`[href$="${study.uid}"]`));
    await view.waitFor();
    if (settle) {
      await page.waitForLoadState('networkidle');
    }
    // Timed by the page's clock: from the click to the viewer's mark of its first drawn image.
    await page.evaluate(MARK_THE_CLICK);
    const started = performance.now();
    await view.click();
    await page.locator('[data-first-image-ms]').waitFor({ timeout: 60_000 });
    const [clickedAt, drawnAt] = await page.evaluate<[number, number]>(CLICK_AND_FIRST_IMAGE);
    const firstImageMs = drawnAt - clickedAt;
    const requests = await page.evaluate<Requests>(REQUESTS_SINCE(clickedAt));
    return { started, firstImageMs, requests: requests.filter((request) => request.start < firstImageMs) };
  };
  /** Opens the study's page by its address in a new context: nothing cached, no page before it. */
  const openColdLink = async () => {
    const { context, page } = await newPage();
    try {
      await page.goto(`/imageview?image=${study.uid}`);
      await page.locator('[data-first-image-ms]').waitFor({ timeout: 60_000 });
      return await page.evaluate<number>(FIRST_IMAGE_SINCE_NAVIGATION);
    } finally {
      await context.close();
    }
  };
  /** Opens a share link of the study in a new context with no account. */
  const openShareLink = async (url: string) => {
    const context = await browser.newContext({ viewport: { width: 1400, height: 1000 } });
    try {
      const page = await context.newPage();
      await page.goto(url);
      await page.locator('[data-first-image-ms]').waitFor({ timeout: 60_000 });
      return await page.evaluate<number>(FIRST_IMAGE_SINCE_NAVIGATION);
    } finally {
      await context.close();
    }
  };
  try {
    if (process.env.BENCH_SCREENSHOTS) {
      await saveScreenshots(browser, patient.base, study.uid, process.env.BENCH_SCREENSHOTS);
    }
    // Twice, the first untimed: the server's own first answers of these files are not the link's.
    await openColdLink();
    const coldLinkMs = await openColdLink();
    const { share } = await patient.json<{ share: { url: string } }>(
      'POST',
      `/api/image/${study.uid}/shares`,
      { allow_download: false },
    );
    // The link's address on the bench's server (PUBLIC_URL names the app's own address).
    const shareUrl = `${patient.base}${new URL(share.url).pathname}`;
    await openShareLink(shareUrl);
    const shareLinkMs = await openShareLink(shareUrl);
    const first = await newPage();
    const atOnce = await openStudy(first.page, false);
    // Closed, so that its prefetching takes nothing from the next opening.
    await first.context.close();
    const { context, page } = await newPage();
    // BENCH_VIEWER_PROFILE=<file>: the page's CPU profile of the settled opening, for DevTools.
    const profilePath = process.env.BENCH_VIEWER_PROFILE;
    const profiler = profilePath ? await context.newCDPSession(page) : undefined;
    await profiler?.send('Profiler.enable');
    await profiler?.send('Profiler.start');
    const settled = await openStudy(page, true);
    if (profiler && profilePath) {
      const { profile } = await profiler.send('Profiler.stop');
      await writeFile(profilePath, JSON.stringify(profile));
    }
    const stage = page.getByTestId('viewer-stage');
    await page.getByTestId('viewer-progress').waitFor({ state: 'detached', timeout: 300_000 });
    const allLoadedMs = performance.now() - settled.started;

    // Step through the loaded stack from its first slice, as fast as the page draws.
    await stage.focus();
    await page.keyboard.press('Home');
    await page.getByTestId('overlay-slice').getByText(`Im 1 / ${slices}`).waitFor();
    const scrollMs = await page.evaluate<number>(STEP_THROUGH_STACK);
    const heapBytes = await page.evaluate<number>(READ_HEAP);
    const mprReadyMs = await openMpr(page);
    // Again in a new page: the browser has the viewer's code, not the images.
    const again = await openStudy(page, false);
    return {
      slices,
      firstImageAtOnceMs: atOnce.firstImageMs,
      firstImageSettledMs: settled.firstImageMs,
      firstImageAgainMs: again.firstImageMs,
      coldLinkMs,
      shareLinkMs,
      allLoadedMs,
      scrollPerSecond: SCROLL_STEPS / (scrollMs / 1000),
      heapMb: heapBytes / 1024 ** 2,
      mprReadyMs,
      requests: settled.requests,
    };
  } finally {
    await browser.close();
  }
}

/** Opens MPR on the loaded stack and closes it again: ms from the click until its view is ready. */
async function openMpr(page: Page): Promise<number> {
  const started = performance.now();
  await page.getByRole('button', { name: 'MPR', exact: true }).click();
  await page.locator('[data-testid="mpr-view"][data-status="ready"]').waitFor({ timeout: 300_000 });
  const readyMs = performance.now() - started;
  await page.getByRole('button', { name: 'Close MPR' }).click();
  await page.locator('[data-first-image-ms]').waitFor({ timeout: 60_000 });
  return readyMs;
}

/** The reading room, then its MPR, at 1366 × 768 (a common laptop), saved as PNG files in `folder`. */
async function saveScreenshots(browser: Browser, base: string, itemUid: string, folder: string) {
  await mkdir(folder, { recursive: true });
  const context = await browser.newContext({ baseURL: base, viewport: { width: 1366, height: 768 } });
  try {
    await context.request.post('/api/auth/signin', { data: DEMO_PATIENT });
    const page = await context.newPage();
    await page.goto(`/imageview?image=${itemUid}`);
    await page.getByRole('button', { name: 'Open in reading room' }).click();
    await page.locator('[data-first-image-ms]').waitFor({ timeout: 60_000 });
    await page.getByTestId('viewer-progress').waitFor({ state: 'detached', timeout: 300_000 });
    await page.screenshot({ path: path.join(folder, 'reading-room-1366x768.png') });
    await page.getByRole('button', { name: 'MPR', exact: true }).click();
    await page.locator('[data-testid="mpr-view"][data-status="ready"]').waitFor({ timeout: 300_000 });
    await page.screenshot({ path: path.join(folder, 'reading-room-mpr-1366x768.png') });
  } finally {
    await context.close();
  }
}

export function printViewerTable(figures: ViewerFigures): void {
  console.log(`\nDiagnostic viewer, ${figures.slices}-slice CT, Chromium on this machine\n`);
  console.log('| figure | value | goal |');
  console.log('|---|---:|---:|');
  const rows: [string, number][] = [
    ['study opened as soon as its link shows → first image drawn', figures.firstImageAtOnceMs],
    ['study opened once the library has settled → first image drawn', figures.firstImageSettledMs],
    ["study opened again, the viewer's code cached → first image drawn", figures.firstImageAgainMs],
  ];
  for (const [figure, ms] of rows) {
    console.log(`| ${figure} | ${ms.toFixed(0)} ms | ≤ 1000 ms |`);
  }
  console.log(
    `| cold link: the study's page opened by its address in a new browser → first image drawn | ${figures.coldLinkMs.toFixed(0)} ms | ≤ 1500 ms |`,
  );
  console.log(
    `| share link (no access code) opened in a new browser without an account → first image drawn | ${figures.shareLinkMs.toFixed(0)} ms | ≤ 1500 ms |`,
  );
  console.log(`| study opened → every slice loaded | ${(figures.allLoadedMs / 1000).toFixed(1)} s | |`);
  console.log(
    `| scrolling the loaded stack | ${figures.scrollPerSecond.toFixed(0)} slices/s | the display's rate |`,
  );
  console.log(
    `| MPR opened on the loaded stack → volume built and drawn in three planes | ${figures.mprReadyMs.toFixed(0)} ms | |`,
  );
  console.log(`| page heap after loading | ${figures.heapMb.toFixed(0)} MB | bounded by the image cache |`);
  console.log('\nRequests of the settled opening until its first image (ms from the click):\n');
  console.log('| request | start | end |');
  console.log('|---|---:|---:|');
  for (const request of figures.requests) {
    const name = request.name.length > 60 ? `…${request.name.slice(-59)}` : request.name;
    console.log(`| ${name} | ${request.start.toFixed(0)} | ${request.end.toFixed(0)} |`);
  }
}
