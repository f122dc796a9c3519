/**
 * Page weight and largest contentful paint of a first visit, measured as a new visitor on a slow
 * phone: real Chromium, fast-4G (150 ms RTT, 1.6 Mbps down, 750 kbps up), the CPU slowed four
 * times and the cache disabled. Bytes are what crossed the wire (compressed bodies and headers).
 */
import { chromium, type Browser, type CDPSession } from '@playwright/test';
import { CHROMIUM_LAUNCH } from '../e2e/chromium.js';

const FAST_4G = {
  offline: false,
  latency: 150,
  downloadThroughput: 1_600_000 / 8,
  uploadThroughput: 750_000 / 8,
};
const CPU_SLOWDOWN = 4;
/** Timed visits per page; the median is reported (one machine runs browser and server alike). */
const RUNS = Number(process.env.BENCH_PAGE_RUNS ?? 3);
/** A page has settled when nothing was on the wire for this long (notifications poll every 20 s). */
const QUIET_MS = 1_500;
const SETTLE_TIMEOUT_MS = 60_000;
/** Reads the last largest-contentful-paint entry; the bench's tsconfig has no DOM types, hence a string. */
const READ_LCP = `new Promise((resolve) => {
  new PerformanceObserver((list) => {
    const entries = list.getEntries();
    resolve(entries.length > 0 ? entries[entries.length - 1].startTime : null);
  }).observe({ type: 'largest-contentful-paint', buffered: true });
  setTimeout(() => resolve(null), 2000);
})`;
const DEMO_PHYSICIAN = { email: 'physician@example.com', password: 'demo-password' };

interface PageVisit {
  name: string;
  path: string;
  /** A heading the page shows once it has rendered, so a redirect or an error is not measured. */
  heading: string | RegExp;
  signInAs?: { email: string; password: string };
}

const PAGES: PageVisit[] = [
  { name: 'landing /', path: '/', heading: 'Get your medical scan interpreted today.' },
  { name: 'sign-in /signin', path: '/signin?role=Patient', heading: 'Patient Login' },
  {
    name: 'dashboard /dashboard (physician)',
    path: '/dashboard',
    heading: /^Welcome, /,
    signInAs: DEMO_PHYSICIAN,
  },
  {
    name: 'image library /imagelibrary (physician)',
    path: '/imagelibrary',
    heading: 'Your Medical Images',
    signInAs: DEMO_PHYSICIAN,
  },
];

export interface PageWeightFigure {
  name: string;
  /** Everything the visit moved over the wire, API answers included. */
  bytes: number;
  /** The app's own files: the document, scripts, stylesheets, images and fonts. */
  appFileBytes: number;
  requests: number;
  lcpMs: number | null;
}

/** Counts the bytes of every finished request and when the wire was last busy. */
function trackWire(cdp: CDPSession) {
  const types = new Map<string, string>();
  const wire = { bytes: 0, appFileBytes: 0, requests: 0, inFlight: 0, lastEventAt: Date.now() };
  const touch = () => {
    wire.lastEventAt = Date.now();
  };
  cdp.on('Network.requestWillBeSent', () => {
    wire.inFlight += 1;
    touch();
  });
  cdp.on('Network.responseReceived', (event) => {
    types.set(event.requestId, event.type);
    touch();
  });
  cdp.on('Network.loadingFinished', (event) => {
    const isApiAnswer = ['Fetch', 'XHR'].includes(types.get(event.requestId) ?? '');
    wire.bytes += event.encodedDataLength;
    wire.appFileBytes += isApiAnswer ? 0 : event.encodedDataLength;
    wire.requests += 1;
    wire.inFlight -= 1;
    touch();
  });
  cdp.on('Network.loadingFailed', () => {
    wire.inFlight -= 1;
    touch();
  });
  return wire;
}

async function waitForQuiet(wire: ReturnType<typeof trackWire>): Promise<void> {
  const until = Date.now() + SETTLE_TIMEOUT_MS;
  while (wire.inFlight > 0 || Date.now() - wire.lastEventAt < QUIET_MS) {
    if (Date.now() > until) {
      throw new Error(`the page did not settle in ${SETTLE_TIMEOUT_MS / 1000} s`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function measureVisit(browser: Browser, base: string, visit: PageVisit): Promise<PageWeightFigure> {
  const context = await browser.newContext({ baseURL: base });
  try {
    if (visit.signInAs) {
      // The session cookie lands in this context; the page's first refresh turns it into a token.
      const answer = await context.request.post('/api/auth/signin', { data: visit.signInAs });
      if (!answer.ok()) {
        throw new Error(`sign-in for the bench: ${answer.status()}`);
      }
    }
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
    await cdp.send('Network.emulateNetworkConditions', FAST_4G);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN });
    const wire = trackWire(cdp);
    await page.goto(visit.path, { waitUntil: 'load', timeout: SETTLE_TIMEOUT_MS });
    await page
      .getByRole('heading', { name: visit.heading, exact: true })
      .waitFor({ timeout: SETTLE_TIMEOUT_MS });
    await waitForQuiet(wire);
    const lcpMs = await page.evaluate<number | null>(READ_LCP);
    return {
      name: visit.name,
      bytes: wire.bytes,
      appFileBytes: wire.appFileBytes,
      requests: wire.requests,
      lcpMs,
    };
  } finally {
    await context.close();
  }
}

/** The visit with the median largest contentful paint. */
function medianVisit(visits: PageWeightFigure[]): PageWeightFigure {
  const sorted = [...visits].sort((a, b) => (a.lcpMs ?? Infinity) - (b.lcpMs ?? Infinity));
  return sorted[Math.floor(sorted.length / 2)]!;
}

/**
 * Visits each measured page as a new visitor (fresh context, empty cache): once untimed, so the
 * server's first-request warm-up is not counted, then RUNS times, reporting the median visit.
 */
export async function pageWeightFigures(base: string): Promise<PageWeightFigure[]> {
  const browser = await chromium.launch(CHROMIUM_LAUNCH);
  try {
    const figures: PageWeightFigure[] = [];
    for (const visit of PAGES) {
      await measureVisit(browser, base, visit);
      const visits: PageWeightFigure[] = [];
      for (let run = 0; run < RUNS; run += 1) {
        visits.push(await measureVisit(browser, base, visit));
      }
      figures.push(medianVisit(visits));
    }
    return figures;
  } finally {
    await browser.close();
  }
}

export function printPageWeightTable(figures: PageWeightFigure[]): void {
  const kb = (bytes: number) => (bytes / 1000).toFixed(1);
  console.log(
    `\n| first visit, fast-4G, 4× CPU slowdown, median of ${RUNS} | over the wire (kB) | of which app files (kB) | requests | largest contentful paint (ms) |`,
  );
  console.log('|---|---:|---:|---:|---:|');
  for (const figure of figures) {
    const lcp = figure.lcpMs === null ? 'none' : figure.lcpMs.toFixed(0);
    console.log(
      `| ${figure.name} | ${kb(figure.bytes)} | ${kb(figure.appFileBytes)} | ${figure.requests} | ${lcp} |`,
    );
  }
}
