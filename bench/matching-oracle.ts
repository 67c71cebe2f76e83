/**
 * The matching oracle at full length: 1,000,000 seeded commands (or argv[2])
 * through the fast book and the reference book side by side, with every check
 * of the oracle test after every command. Prints the time taken.
 *
 *   npx tsx bench/matching-oracle.ts [commandCount]
 */
import { runAgainstReference } from '../packages/matching/test-support/oracle-run.ts';

const commandCount = Number(process.argv[2] ?? 1_000_000);
const startedMs = performance.now();
const summary = runAgainstReference({
  seed: 20_261_123,
  commandCount,
  restoreEvery: 10_000,
  depthEvery: 1_000,
});
const elapsedS = (performance.now() - startedMs) / 1000;

console.log(`matching oracle: ${summary.commands} commands, fast book = reference book at every step`);
console.log(
  `  ${summary.events} events, ${summary.trades} trades, ${summary.restores} restores, ${summary.restingAtEnd} orders resting at the end`,
);
console.log(
  `  ${elapsedS.toFixed(1)} s (${Math.round(summary.commands / elapsedS)} commands/s, both books and all checks)`,
);
