/**
 * Lighthouse mobile run of the web app's home page (issue "Web app": the
 * home page scores ≥ 90 for performance and accessibility). It builds
 * nothing: build the app and start the server first, then
 *
 *   npm run bench:lighthouse [-- URL]        (default http://localhost:8090/)
 *
 * Uses Lighthouse's default mobile preset (Moto G-class emulation, simulated
 * slow-4G throttling) and Debian's chromium (CHROME_PATH, default
 * /usr/bin/chromium). Prints the category scores, the main metrics and each
 * score's ratio to the 90 anchor. LIGHTHOUSE_JSON=file also saves the report.
 */
import { writeFile } from 'node:fs/promises';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';

/** The anchor: the issue's bar for performance and accessibility. */
const ANCHOR_SCORE = 90;
const CATEGORIES = ['performance', 'accessibility', 'best-practices'];
/** Categories the issue holds to the anchor; best-practices is reported only. */
const GATED = new Set(['performance', 'accessibility']);
const CHROME_FLAGS = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

const url = process.argv[2] ?? process.env.LIGHTHOUSE_URL ?? 'http://localhost:8090/';
const chrome = await chromeLauncher.launch({
  chromePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
  chromeFlags: CHROME_FLAGS,
});
try {
  const result = await lighthouse(url, {
    port: chrome.port,
    output: 'json',
    logLevel: 'error',
    onlyCategories: CATEGORIES,
    formFactor: 'mobile',
    throttlingMethod: 'simulate',
  });
  if (!result) throw new Error('Lighthouse returned no result');
  const { lhr } = result;
  if (lhr.runtimeError) throw new Error(`${lhr.runtimeError.code}: ${lhr.runtimeError.message}`);
  // LIGHTHOUSE_JSON=file keeps the full report, for the audits' details.
  if (process.env.LIGHTHOUSE_JSON) await writeFile(process.env.LIGHTHOUSE_JSON, JSON.stringify(lhr));
  printScores(lhr);
  printMetrics(lhr);
  printFailedAudits(lhr);
} finally {
  await chrome.kill();
}

function printScores(lhr) {
  console.log(`Lighthouse ${lhr.lighthouseVersion} mobile, ${lhr.finalDisplayedUrl}`);
  for (const id of CATEGORIES) {
    const score = Math.round((lhr.categories[id]?.score ?? 0) * 100);
    const ratio = (score / ANCHOR_SCORE).toFixed(2);
    const verdict = GATED.has(id) ? (score >= ANCHOR_SCORE ? 'pass' : 'FAIL') : 'info';
    console.log(
      `  ${id.padEnd(15)} ${String(score).padStart(3)}  ratio to ${ANCHOR_SCORE}: ${ratio}  ${verdict}`,
    );
  }
}

function printMetrics(lhr) {
  const metric = (id) => lhr.audits[id]?.displayValue ?? 'n/a';
  const scripts = lhr.audits['resource-summary']?.details?.items?.find(
    (item) => item.resourceType === 'script',
  );
  const jsKib = scripts
    ? `${(scripts.transferSize / 1024).toFixed(1)} KiB in ${scripts.requestCount} files`
    : 'n/a';
  console.log(`  FCP ${metric('first-contentful-paint')}  LCP ${metric('largest-contentful-paint')}`);
  console.log(`  TBT ${metric('total-blocking-time')}  CLS ${metric('cumulative-layout-shift')}`);
  console.log(`  JS transferred ${jsKib}`);
}

/** What to fix next: the audits of the gated categories that did not pass. */
function printFailedAudits(lhr) {
  for (const id of GATED) {
    const failed = lhr.categories[id].auditRefs
      .filter((ref) => ref.weight > 0)
      .map((ref) => lhr.audits[ref.id])
      .filter((audit) => audit.score !== null && audit.score < 0.9);
    if (failed.length === 0) continue;
    console.log(`  ${id} audits below 0.9:`);
    for (const audit of failed) {
      console.log(`    ${audit.id} (${audit.score})${audit.displayValue ? ` ${audit.displayValue}` : ''}`);
    }
  }
}
