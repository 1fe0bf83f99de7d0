import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// The layers of src/ (ARCHITECTURE.md), lowest first. A file may import its own layer or a lower
// one; layers of one rank (stores, adapters) do not import each other.
const LAYERS: Record<string, number> = {
  core: 0,
  stores: 1,
  adapters: 1,
  runners: 2,
  tools: 3,
  entries: 4,
};

const src = fileURLToPath(new URL('../src/', import.meta.url));

/** One import of a file of src/: both paths relative to src/, with '/' between folders. */
interface Arrow {
  from: string;
  to: string;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

const posix = (path: string) => path.split(sep).join('/');

/** The imports of one file's text: static, re-exports, dynamic and `typeof import(...)`. */
function importsOf(file: string, text: string): Arrow[] {
  const from = posix(relative(src, file));
  const arrows: Arrow[] = [];
  // `from` after a name, `}` or `*` (not after a comment's `//`), or `import` itself.
  for (const [, spec] of text.matchAll(/(?:[\w}*]\s+from|\bimport\s*\(?)\s*['"]([^'"\n]+)['"]/g)) {
    if (!spec) continue;
    let to: string | undefined;
    if (spec === 'loopchart') to = 'entries/index.ts';
    else if (spec.startsWith('loopchart/')) to = `entries/${spec.slice('loopchart/'.length)}.ts`;
    else if (spec.startsWith('.')) {
      to = posix(relative(src, normalize(join(dirname(file), spec)))).replace(/\.js$/, '.ts');
    }
    if (to !== undefined) arrows.push({ from, to });
  }
  return arrows;
}

const layerOf = (path: string) => path.split('/')[0] ?? '';
const show = ({ from, to }: Arrow) => `src/${from} imports src/${to}`;

/** Every arrow that runs from a layer to one of the same or a higher rank, or leaves the layers. */
function upwardArrows(arrows: readonly Arrow[]): string[] {
  return arrows.flatMap((arrow) => {
    const [a, b] = [layerOf(arrow.from), layerOf(arrow.to)];
    if (!(a in LAYERS)) return [`${show(arrow)}: src/${arrow.from} is in no layer`];
    if (!(b in LAYERS)) return [`${show(arrow)}: src/${arrow.to} is in no layer`];
    if (a === b || (LAYERS[b] ?? 0) < (LAYERS[a] ?? 0)) return [];
    return [`${show(arrow)}: ${a} (rank ${LAYERS[a]}) may not import ${b} (rank ${LAYERS[b]})`];
  });
}

/**
 * Cycles among sibling folders, at every depth: under each folder, its child folders (each with
 * all it holds) are the nodes, and a file under one importing a file under another is an edge.
 * Each cycle is reported with the imports that make its edges.
 */
function folderCycles(arrows: readonly Arrow[]): string[] {
  const edges = new Map<string, Map<string, Arrow[]>>();
  for (const arrow of arrows) {
    const a = arrow.from.split('/').slice(0, -1);
    const b = arrow.to.split('/').slice(0, -1);
    let depth = 0;
    while (depth < a.length && depth < b.length && a[depth] === b[depth]) depth++;
    // The first folders where the two paths part; a file beside the folders is no node.
    if (depth >= a.length || depth >= b.length) continue;
    const x = a.slice(0, depth + 1).join('/');
    const y = b.slice(0, depth + 1).join('/');
    const out = edges.get(x) ?? new Map<string, Arrow[]>();
    out.set(y, [...(out.get(y) ?? []), arrow]);
    edges.set(x, out);
  }
  return stronglyConnected(edges).map((members) => {
    const inside = new Set(members);
    const ties = members.flatMap((x) =>
      [...(edges.get(x) ?? [])]
        .filter(([y]) => inside.has(y))
        .map(([y, [first, ...more]]) => {
          const others = more.length > 0 ? ` (and ${more.length} more)` : '';
          return `${x} → ${y}: ${first ? show(first) : ''}${others}`;
        }),
    );
    return `cycle ${members.join(' ⇄ ')}:\n  ${ties.join('\n  ')}`;
  });
}

/** Tarjan's strongly connected components of more than one node. */
function stronglyConnected(edges: Map<string, Map<string, unknown>>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const found: string[][] = [];
  const visit = (v: string) => {
    index.set(v, index.size);
    low.set(v, index.get(v) ?? 0);
    stack.push(v);
    for (const w of edges.get(v)?.keys() ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v) ?? 0, low.get(w) ?? 0));
      } else if (stack.includes(w)) {
        low.set(v, Math.min(low.get(v) ?? 0, index.get(w) ?? 0));
      }
    }
    if (low.get(v) !== index.get(v)) return;
    const members: string[] = [];
    let w: string | undefined;
    do {
      w = stack.pop();
      if (w !== undefined) members.push(w);
    } while (w !== undefined && w !== v);
    if (members.length > 1) found.push(members.sort());
  };
  for (const v of [...edges.keys()].sort()) if (!index.has(v)) visit(v);
  return found;
}

const files = sourceFiles(src);
const arrows = files.flatMap((file) => importsOf(file, readFileSync(file, 'utf8')));

describe('the import graph of src/', () => {
  it('is read whole: every arrow lands on a file, and the known arrows are there', () => {
    const known = new Set(files.map((file) => posix(relative(src, file))));
    expect(arrows.filter((arrow) => !known.has(arrow.to)).map(show)).toEqual([]);
    expect(arrows.length).toBeGreaterThan(500);
    expect(arrows).toContainEqual({
      from: 'runners/loop/runLoop.ts',
      to: 'core/chart/loopMachine.ts',
    });
  });

  it('keeps every file in a layer', () => {
    const loose = files.map((file) => posix(relative(src, file))).filter((f) => !f.includes('/'));
    const unknown = [...new Set(files.map((file) => layerOf(posix(relative(src, file)))))].filter(
      (layer) => !(layer in LAYERS),
    );
    expect([...loose, ...unknown]).toEqual([]);
  });

  it('points every arrow down: no layer imports its own rank or a higher one', () => {
    expect(upwardArrows(arrows)).toEqual([]);
  });

  it('has no cycle between folders at any depth', () => {
    expect(folderCycles(arrows)).toEqual([]);
  });

  it('names every export of a public entry (no export *)', () => {
    const entries = files.filter((file) => layerOf(posix(relative(src, file))) === 'entries');
    expect(entries.length).toBeGreaterThan(10);
    const starred = entries.filter((file) => /export\s*\*/.test(readFileSync(file, 'utf8')));
    expect(starred.map((file) => posix(relative(src, file)))).toEqual([]);
  });
});

describe('the checks themselves', () => {
  const file = (path: string) => join(src, path);

  it('flag an arrow from the core up to a tool, naming the import', () => {
    const bad = importsOf(
      file('core/chart/loopGuards.ts'),
      "import { isBudgetGuard } from '../../tools/analysis/budgetGuard.js';",
    );
    expect(upwardArrows(bad)).toEqual([
      'src/core/chart/loopGuards.ts imports src/tools/analysis/budgetGuard.ts: core (rank 0) may not import tools (rank 3)',
    ]);
  });

  it('flag an arrow between layers of one rank and a self-import by package name', () => {
    const sideways = importsOf(
      file('stores/kit/x.ts'),
      "import type { A } from '../../adapters/a.js';",
    );
    const named = importsOf(
      file('runners/loop/x.ts'),
      "const m = await import('loopchart/viewer');",
    );
    expect(upwardArrows([...sideways, ...named])).toHaveLength(2);
  });

  it('find a cycle between two folders and print the imports that close it', () => {
    const cycle = [
      ...importsOf(file('tools/diagram/a.ts'), "export { g } from '../analysis/b.js';"),
      ...importsOf(file('tools/analysis/b.ts'), "import { a } from '../diagram/a.js';"),
      ...importsOf(file('tools/viewer/page/c.ts'), "import { d } from '../d.js';"),
    ];
    expect(folderCycles(cycle)).toEqual([
      'cycle tools/analysis ⇄ tools/diagram:\n' +
        '  tools/analysis → tools/diagram: src/tools/analysis/b.ts imports src/tools/diagram/a.ts\n' +
        '  tools/diagram → tools/analysis: src/tools/diagram/a.ts imports src/tools/analysis/b.ts',
    ]);
  });
});
