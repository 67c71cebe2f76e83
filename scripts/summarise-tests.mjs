// Adds up the Vitest JSON reports of every run and prints the closing line
// CI reads: "N passed, N failed" (", N skipped" when any were skipped).
import fs from 'node:fs';
import path from 'node:path';

const dir = process.argv[2];
let passed = 0;
let failed = 0;
let skipped = 0;
for (const file of fs.readdirSync(dir).filter((name) => name.endsWith('.json'))) {
  const report = JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8'));
  passed += report.numPassedTests ?? 0;
  failed += report.numFailedTests ?? 0;
  skipped += (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
}
const e2eLog = path.join(dir, 'e2e.log');
if (fs.existsSync(e2eLog)) {
  const text = fs.readFileSync(e2eLog, 'utf8');
  passed += Number(/(\d+) passed/.exec(text)?.[1] ?? 0);
  failed += Number(/(\d+) failed/.exec(text)?.[1] ?? 0);
  skipped += Number(/(\d+) skipped/.exec(text)?.[1] ?? 0);
}
console.log(`\n${passed} passed, ${failed} failed${skipped > 0 ? `, ${skipped} skipped` : ''}`);
process.exit(failed > 0 ? 1 : 0);
