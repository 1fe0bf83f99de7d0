import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** One ```ts block of a Markdown page, with the declarations its hidden prelude gives it. */
export interface DocBlock {
  file: string;
  line: number;
  code: string;
}

const BLOCK = /(?:<!--\s*prelude\s*\n([\s\S]*?)-->\s*\n)?```ts\n([\s\S]*?)```/g;

/** Every ```ts block of README.md and docs/*.md; a `<!-- prelude … -->` just before one is prepended. */
export function docBlocks(root: string): DocBlock[] {
  return docPages(root).flatMap((file) => {
    const text = readFileSync(join(root, file), 'utf8');
    return [...text.matchAll(BLOCK)].map((match) => ({
      file,
      line: text.slice(0, match.index).split('\n').length,
      code: `${match[1] ?? ''}${match[2] ?? ''}`,
    }));
  });
}

/** README.md and every docs/*.md page, as paths relative to the repo root. */
export function docPages(root: string): string[] {
  return [
    'README.md',
    ...readdirSync(join(root, 'docs'))
      .filter((name) => name.endsWith('.md'))
      .map((name) => `docs/${name}`),
  ];
}
