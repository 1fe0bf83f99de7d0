/**
 * Counts the names each entry exports (values and types), read from src/entries/*.ts, and lists
 * the names exported by more than one entry.
 * Usage: node scripts/entryNames.mjs [src/entries folder]
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The names an entry file exports, by kind: `export { a, b as c }` and `export type { … }`. */
export function entryNames(source) {
  const values = [];
  const types = [];
  for (const match of source.matchAll(/export\s+(type\s+)?\{([^}]*)\}/g)) {
    for (const part of match[2].split(',')) {
      const spec = part.trim();
      if (!spec) continue;
      const typeOnly = match[1] !== undefined || spec.startsWith('type ');
      const name = spec
        .replace(/^type\s+/, '')
        .split(/\s+as\s+/)
        .pop()
        .trim();
      (typeOnly ? types : values).push(name);
    }
  }
  return { values, types };
}

/** Every entry's names, by entry file name (without `.ts`). */
export function entriesIn(folder) {
  const entries = {};
  for (const file of readdirSync(folder)
    .filter((f) => f.endsWith('.ts'))
    .sort()) {
    entries[file.replace(/\.ts$/, '')] = entryNames(readFileSync(join(folder, file), 'utf8'));
  }
  return entries;
}

/** Names exported by more than one entry, with the entries that export them. */
export function sharedNames(entries) {
  const where = new Map();
  for (const [entry, { values, types }] of Object.entries(entries)) {
    for (const name of [...values, ...types]) where.set(name, [...(where.get(name) ?? []), entry]);
  }
  return [...where].filter(([, list]) => list.length > 1);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const folder = process.argv[2] ?? fileURLToPath(new URL('../src/entries', import.meta.url));
  const entries = entriesIn(folder);
  let total = 0;
  for (const [entry, { values, types }] of Object.entries(entries)) {
    total += values.length + types.length;
    console.log(
      `${entry}\t${values.length + types.length}\t(${values.length} values, ${types.length} types)`,
    );
  }
  console.log(`total\t${total}`);
  for (const [name, list] of sharedNames(entries))
    console.log(`on two entries: ${name}: ${list.join(', ')}`);
}
