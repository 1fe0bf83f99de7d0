import { mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const dir = fileURLToPath(new URL('../../../artifacts/reliability/', import.meta.url));

/** Writes a test's measured figures to artifacts/reliability/<name>.json (RELIABILITY.md quotes them). */
export function recordFigures(name: string, figures: Record<string, unknown>): void {
  mkdirSync(dir, { recursive: true });
  const at = new Date().toISOString();
  writeFileSync(`${dir}${name}.json`, `${JSON.stringify({ at, ...figures }, null, 2)}\n`);
}
