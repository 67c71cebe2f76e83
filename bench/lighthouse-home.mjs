/**
 * Lighthouse mobile runs of the web app's home page (issue "Web app": the
 * home page scores ≥ 90 for performance and accessibility). It builds
 * nothing: build the app and start the server first, then
 *
 *   npm run bench:lighthouse [-- URL]        (default http://localhost:8090/)
 *
 * Uses Lighthouse's default mobile preset (Moto G-class emulation, simulated
 * slow-4G throttling) and Debian's chromium (CHROME_PATH, default
 * /usr/bin/chromium). The simulation scales the CPU time it observes, so a
 * busy machine lowers the score: it runs LIGHTHOUSE_RUNS times (default 3),
 * prints each run with the load average, then the median of each category
 * with its ratio to the 90 anchor, and the main metrics and failing audits of
 * the median run. LIGHTHOUSE_JSON=file saves that run's full report.
 */
import { writeFile } from 'node:fs/promises';
import os from 'node:os';
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
const runs = Math.max(1, Number(process.env.LIGHTHOUSE_RUNS ?? 3));

const reports = [];
for (let run = 1; run <= runs; run += 1) {
  const load = loadAverage();
  const lhr = await lighthouseRun();
  reports.push(lhr);
  const scores = CATEGORIES.map((id) => `${id} ${score(lhr, id)}`).join(', ');
  console.log(`run ${run}/${runs} (load average ${load}): ${scores}`);
}
// The run whose performance score is the median stands for the metrics and audits.
const byPerformance = [...reports].sort((a, b) => score(a, 'performance') - score(b, 'performance'));
const median = byPerformance[Math.floor((byPerformance.length - 1) / 2)];
if (process.env.LIGHTHOUSE_JSON) await writeFile(process.env.LIGHTHOUSE_JSON, JSON.stringify(median));
printScores(median);
printMetrics(median);
printFailedAudits(median);

async function lighthouseRun() {
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
    return lhr;
  } finally {
    await chrome.kill();
  }
}

function loadAverage() {
  return os
    .loadavg()
    .map((value) => value.toFixed(2))
    .join(' ');
}

function score(lhr, id) {
  return Math.round((lhr.categories[id]?.score ?? 0) * 100);
}

/** Each category's median over the runs, with its ratio to the anchor. */
function printScores(medianRun) {
  console.log(
    `Lighthouse ${medianRun.lighthouseVersion} mobile, ${medianRun.finalDisplayedUrl}, median of ${runs}`,
  );
  for (const id of CATEGORIES) {
    const sorted = reports.map((lhr) => score(lhr, id)).sort((a, b) => a - b);
    const value = sorted[Math.floor((sorted.length - 1) / 2)];
    const ratio = (value / ANCHOR_SCORE).toFixed(2);
    const verdict = GATED.has(id) ? (value >= ANCHOR_SCORE ? 'pass' : 'FAIL') : 'info';
    console.log(
      `  ${id.padEnd(15)} ${String(value).padStart(3)}  ratio to ${ANCHOR_SCORE}: ${ratio}  ${verdict}  (runs: ${reports.map((lhr) => score(lhr, id)).join(' ')})`,
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
  console.log('  median run:');
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
