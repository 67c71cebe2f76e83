import { statSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { inspectJournal, verifyJournal } from './cli-commands.ts';

/**
 * The journal's command line (docs/core.md, "Inspecting and verifying the journal"):
 *
 *   inspect DIR [--from SEQ] [--limit N]   print the records after SEQ
 *   verify DIR                             check every record; exit 0 clean,
 *                                          1 corrupt, 2 torn tail
 */
const usage = 'usage: journal inspect DIR [--from SEQ] [--limit N] | journal verify DIR';

function wholeNumber(value: string | undefined, name: string): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value)) throw new Error(`--${name} takes a whole number, not ${value}`);
  return Number(value);
}

function isDirectory(dir: string): boolean {
  return statSync(dir, { throwIfNoEntry: false })?.isDirectory() ?? false;
}

async function main(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { from: { type: 'string' }, limit: { type: 'string' } },
  });
  const [command, dir] = positionals;
  const print = (line: string) => console.log(line);
  if (dir && !isDirectory(dir)) {
    console.error(`${dir} is not a journal directory (no such directory)`);
    return 66;
  }
  if (command === 'inspect' && dir) {
    const range = { from: wholeNumber(values.from, 'from'), limit: wholeNumber(values.limit, 'limit') };
    return inspectJournal(dir, range, print);
  }
  if (command === 'verify' && dir && positionals.length === 2) return verifyJournal(dir, print);
  console.error(usage);
  return 64;
}

try {
  process.exitCode = await main(process.argv.slice(2));
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 64;
}
