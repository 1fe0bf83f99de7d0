#!/usr/bin/env node
// `npm run example -- <name>`: checks the name first (usage and the list at once), then builds
// the library and the examples and runs examples/<name>/<name>.ts.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const root = join(import.meta.dirname, '..');
const names = readdirSync(join(root, 'examples'), { withFileTypes: true })
  .filter(
    (entry) =>
      entry.isDirectory() && existsSync(join(root, 'examples', entry.name, `${entry.name}.ts`)),
  )
  .map((entry) => entry.name)
  .sort();
const name = process.argv[2];

if (!name || !names.includes(name)) {
  if (name) console.error(`no example named "${name}"`);
  console.error('usage: npm run example -- <name>');
  console.error(`examples: ${names.join(', ')}`);
  process.exit(2);
}

for (const args of [
  ['run', 'build', '--silent'],
  ['exec', '--', 'tsc', '-p', 'tsconfig.run.json'],
]) {
  const built = spawnSync('npm', args, { cwd: root, stdio: 'inherit' });
  if (built.status !== 0) process.exit(built.status ?? 1);
}
await import(pathToFileURL(join(root, '.build', 'examples', name, `${name}.js`)).href);
