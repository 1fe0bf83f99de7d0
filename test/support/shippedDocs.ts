import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

/** A path or script of the repository that the package does not ship, as the docs might name it. */
const REPO_ONLY = [
  /(?:^|[\s`(])((?:test|bench|scripts|src|\.ci)\/[\w./-]*)/,
  /\b(npm run [\w:-]+|npm test|npx vitest)\b/,
  /\b(RELIABILITY\.md)\b/,
];

/** Addressed to contributors by its own first words, so it may name the repository's scripts. */
const FOR_A_CLONE = /^In a clone of the repository\b/;

/**
 * What the README and docs/ of an unpacked package (`pkg`) point at that it does not hold: a link
 * or a code block's import from above docs/ that resolves to no file of the package, a backticked
 * `examples/…`, `docs/…` or `dist/…` path that is not there, and any name of the repository's
 * tests, benchmarks, scripts, sources or npm scripts outside a paragraph for a clone.
 */
export function shippedDocProblems(pkg: string): string[] {
  const pages = [
    'README.md',
    ...readdirSync(join(pkg, 'docs'))
      .filter((name) => name.endsWith('.md'))
      .map((name) => `docs/${name}`),
  ];
  return pages.flatMap((page) => {
    const text = readFileSync(join(pkg, page), 'utf8');
    const here = dirname(join(pkg, page));
    const inside = (target: string) => {
      const file = resolve(here, target);
      return !relative(pkg, file).startsWith('..') && existsSync(file);
    };
    const links = [...text.matchAll(/\]\(([^)\s]+)\)/g)]
      .map((match) => String(match[1]).split('#')[0] ?? '')
      .filter((target) => target !== '' && !/^[a-z]+:/.test(target))
      .filter((target) => !inside(target))
      .map((target) => `${page}: link to ${target}`);
    const imports = [...text.matchAll(/from '(\.\.\/[^']+)'/g)]
      .map((match) => String(match[1]))
      .filter((target) => !inside(target) && !inside(target.replace(/\.js$/, '.ts')))
      .map((target) => `${page}: import of ${target}`);
    const paths = [...text.matchAll(/`((?:examples|docs|dist)\/[\w./-]*)`/g)]
      .map((match) => String(match[1]))
      .filter((path) => !existsSync(join(pkg, path)))
      .map((path) => `${page}: path ${path}`);
    const named = text
      .split(/\n\s*\n/)
      .filter((paragraph) => !FOR_A_CLONE.test(paragraph.trim()))
      .flatMap((paragraph) =>
        REPO_ONLY.map((pattern) => pattern.exec(paragraph)?.[1]).filter((hit) => hit !== undefined),
      )
      .map((hit) => `${page}: names ${hit}, which the package does not ship`);
    return [...links, ...imports, ...paths, ...named];
  });
}
