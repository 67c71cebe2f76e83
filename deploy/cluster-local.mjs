// `npm run cluster:local`: the cluster of deploy/Procfile on this machine, each process started again
// when it exits (a sequencer that stops leading exits by design; so does a gateway that loses the jobs
// lease). The shared settings come from deploy/cluster.env, overridden by this process's environment.
// Ctrl-C stops them all (SIGTERM: a leader hands its lease over first).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const here = import.meta.dirname;
const root = path.resolve(here, '..');
/** `KEY=value` lines; blanks and # comments skipped. */
const readEnv = (text) =>
  Object.fromEntries(
    text
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line !== '' && !line.startsWith('#'))
      .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
  );
const shared = { ...readEnv(fs.readFileSync(path.join(here, 'cluster.env'), 'utf8')), ...process.env };
/** `name: KEY=value ... command args`: no shell, so a signal reaches the process itself. */
const processes = fs
  .readFileSync(path.join(here, 'Procfile'), 'utf8')
  .split('\n')
  .filter((line) => /^[\w-]+:/.test(line))
  .map((line) => {
    const name = line.slice(0, line.indexOf(':'));
    const words = line
      .slice(line.indexOf(':') + 1)
      .trim()
      .split(/\s+/);
    const env = {};
    while (/^[A-Z_]+=/.test(words[0])) {
      const word = words.shift();
      env[word.slice(0, word.indexOf('='))] = word.slice(word.indexOf('=') + 1);
    }
    return { name, env, command: words };
  });

const running = new Map();
let stopping = false;
function run({ name, env, command }) {
  const [program, ...args] = command;
  const child = spawn(program === 'node' ? process.execPath : program, args, {
    cwd: root,
    env: { ...shared, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.set(name, child);
  const prefix = (chunk) =>
    chunk
      .toString()
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => `${name.padEnd(12)} | ${line}\n`)
      .join('');
  child.stdout.on('data', (chunk) => process.stdout.write(prefix(chunk)));
  child.stderr.on('data', (chunk) => process.stderr.write(prefix(chunk)));
  child.on('exit', (code, signal) => {
    running.delete(name);
    if (stopping) return;
    process.stdout.write(`${name.padEnd(12)} | exited (${signal ?? code}); starting it again in 1 s\n`);
    setTimeout(() => run({ name, env, command }), 1_000);
  });
}

for (const entry of processes) run(entry);
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => {
    stopping = true;
    for (const child of running.values()) child.kill('SIGTERM');
    setInterval(() => {
      if (running.size === 0) process.exit(0);
    }, 100);
  });
}
