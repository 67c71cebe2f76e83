import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The walls of docs/architecture.md ("The walls"), checked on every run: what may import what, and
 * which packages must stay free of I/O, clocks and randomness.
 */
const root = path.resolve(import.meta.dirname, '..');

function sourceFiles(dir: string): string[] {
  const absolute = path.join(root, dir);
  if (!fs.existsSync(absolute)) return [];
  return fs
    .readdirSync(absolute, { recursive: true, encoding: 'utf8' })
    .filter((file) => /\.(ts|tsx)$/.test(file) && !file.includes('node_modules'))
    .map((file) => path.join(dir, file));
}

function importsOf(file: string): string[] {
  const text = fs.readFileSync(path.join(root, file), 'utf8');
  const specifiers: string[] = [];
  for (const match of text.matchAll(
    /(?:import|export)[^'"]*?from\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g,
  )) {
    specifiers.push((match[1] ?? match[2]) as string);
  }
  return specifiers;
}

function isTest(file: string): boolean {
  return /\.test\.tsx?$/.test(file);
}

describe('architecture walls', () => {
  it('packages never import apps', () => {
    for (const file of sourceFiles('packages')) {
      for (const specifier of importsOf(file)) {
        expect(specifier, file).not.toMatch(/apps\/|@halyard\/(server|web)/);
      }
    }
  });

  it('money and matching import nothing but each other', () => {
    for (const pkg of ['money', 'matching']) {
      for (const file of sourceFiles(`packages/${pkg}/src`).filter((f) => !isTest(f))) {
        for (const specifier of importsOf(file)) {
          const allowed = specifier.startsWith('.') || specifier === '@halyard/money';
          expect(allowed, `${file} imports ${specifier}`).toBe(true);
        }
      }
    }
  });

  it('pure packages read no clock and draw no random numbers', () => {
    for (const pkg of ['money', 'matching', 'rules']) {
      for (const file of sourceFiles(`packages/${pkg}/src`).filter((f) => !isTest(f))) {
        const text = fs.readFileSync(path.join(root, file), 'utf8');
        expect(text, file).not.toMatch(/Date\.now\(|new Date\(\)|Math\.random\(|performance\.now\(/);
        expect(text, file).not.toMatch(/from 'node:/);
      }
    }
  });

  it('the web app never imports the server', () => {
    for (const file of sourceFiles('apps/web/src')) {
      for (const specifier of importsOf(file)) {
        expect(specifier, file).not.toMatch(/apps\/server|@halyard\/server|\.\.\/\.\.\/\.\.\/server/);
      }
    }
  });

  it('the operator console shares only packages/* with the server and the web app', () => {
    for (const file of sourceFiles('apps/admin/src')) {
      for (const specifier of importsOf(file)) {
        expect(specifier, file).not.toMatch(/apps\/(server|web)|@halyard\/(server|web)|\.\.\/\.\.\/\.\.\//);
      }
    }
  });

  it('the journal imports only node: built-ins and its own files', () => {
    const journal = sourceFiles('apps/server/src/core/journal').filter(
      (file) => !isTest(file) && !file.endsWith('test-support.ts'),
    );
    expect(journal.length).toBeGreaterThan(0);
    for (const file of journal) {
      for (const specifier of importsOf(file)) {
        const allowed = specifier.startsWith('node:') || specifier.startsWith('./');
        expect(allowed, `${file} imports ${specifier}`).toBe(true);
      }
    }
  });

  it('the core never imports a module, the HTTP layer or the store', () => {
    for (const file of sourceFiles('apps/server/src/core').filter((f) => !isTest(f))) {
      for (const specifier of importsOf(file)) {
        expect(specifier, file).not.toMatch(/\/(modules|http|store|realtime|market)\//);
      }
    }
  });

  it("a module never reaches into another module's store", () => {
    for (const file of sourceFiles('apps/server/src/modules')) {
      const ownModule = file.split(path.sep)[4];
      for (const specifier of importsOf(file)) {
        const target = /modules\/([\w-]+)\/store(\.ts)?$/.exec(path.join(path.dirname(file), specifier));
        if (target) expect(target[1], `${file} imports ${specifier}`).toBe(ownModule);
      }
    }
  });
});
