/**
 * The diagnostic viewer in Debian's Chromium on a stored 500-slice CT: how long from choosing the
 * series to its first image drawn (the viewer's chunk, the series metadata and the middle frame),
 * until every slice is loaded, how fast the loaded stack scrolls, and the page's memory after.
 */
import { chromium } from 'playwright';
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
/** Chromium's heap figure (precise with --enable-precise-memory-info). */
const READ_HEAP = 'performance.memory ? performance.memory.usedJSHeapSize : 0';

export interface ViewerFigures {
  slices: number;
  /** From the click that opens the study (in the image library) until its first image is drawn. */
  firstImageMs: number;
  /** The same, opened again in a new page (the viewer's code cached by the browser). */
  firstImageAgainMs: number;
  /** From that click until every slice is decoded. */
  allLoadedMs: number;
  /** Slices drawn per second while the keys step through the loaded stack. */
  scrollPerSecond: number;
  /** The page's JavaScript heap after loading the whole series, in MB. */
  heapMb: number;
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
  try {
    const context = await browser.newContext({
      baseURL: patient.base,
      viewport: { width: 1400, height: 1000 },
    });
    await context.request.post('/api/auth/signin', { data: DEMO_PATIENT });
    const page = await context.newPage();
    // From the image library, as a user opens a study; the viewer's code is not cached yet.
    const openStudy = async () => {
      await page.goto('/imagelibrary');
      const view = page.getByRole('link', { name: 'View' }).and(page.locator(`[href$="${study.uid}"]`));
      await view.waitFor();
      const started = performance.now();
      await view.click();
      await page.locator('[data-first-image-ms]').waitFor({ timeout: 60_000 });
      return { started, firstImageMs: performance.now() - started };
    };
    const { started, firstImageMs } = await openStudy();
    const stage = page.getByTestId('viewer-stage');
    await page.getByTestId('viewer-progress').waitFor({ state: 'detached', timeout: 300_000 });
    const allLoadedMs = performance.now() - started;

    // Step through the loaded stack from its first slice, as fast as the page draws.
    await stage.focus();
    await page.keyboard.press('Home');
    await page.getByTestId('overlay-slice').getByText(`Im 1 / ${slices}`).waitFor();
    const scrollMs = await page.evaluate<number>(STEP_THROUGH_STACK);
    const heapBytes = await page.evaluate<number>(READ_HEAP);
    // Again in a new page: the browser has the viewer's code, not the images.
    const again = await openStudy();
    return {
      slices,
      firstImageMs,
      firstImageAgainMs: again.firstImageMs,
      allLoadedMs,
      scrollPerSecond: SCROLL_STEPS / (scrollMs / 1000),
      heapMb: heapBytes / 1024 ** 2,
    };
  } finally {
    await browser.close();
  }
}

export function printViewerTable(figures: ViewerFigures): void {
  console.log(`\nDiagnostic viewer, ${figures.slices}-slice CT, Chromium on this machine\n`);
  console.log('| figure | value | goal |');
  console.log('|---|---:|---:|');
  console.log(`| study opened → first image drawn | ${figures.firstImageMs.toFixed(0)} ms | ≤ 1000 ms |`);
  console.log(
    `| study opened again, the viewer's code cached → first image drawn | ${figures.firstImageAgainMs.toFixed(0)} ms | ≤ 1000 ms |`,
  );
  console.log(`| study opened → every slice loaded | ${(figures.allLoadedMs / 1000).toFixed(1)} s | |`);
  console.log(
    `| scrolling the loaded stack | ${figures.scrollPerSecond.toFixed(0)} slices/s | the display's rate |`,
  );
  console.log(`| page heap after loading | ${figures.heapMb.toFixed(0)} MB | bounded by the image cache |`);
}
