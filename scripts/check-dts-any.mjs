#!/usr/bin/env node
/**
 * Fails when a published declaration file (dist/**\/*.d.ts) has an explicit `any` outside
 * comments and string literals: the public types must say what they hold (docs/types.md).
 * Usage: node scripts/check-dts-any.mjs [dist directory]
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

const dist = process.argv[2] ?? 'dist';

/** Blanks comments and string literals, keeping line breaks so line numbers stay right. */
function codeOnly(text) {
  return text.replace(
    /\/\*[\s\S]*?\*\/|\/\/[^\n]*|'(?:\\.|[^'\\\n])*'|"(?:\\.|[^"\\\n])*"|`(?:\\.|[^`\\])*`/g,
    (match) => match.replace(/[^\n]/g, ' '),
  );
}

const found = [];
const files = readdirSync(dist, { recursive: true, encoding: 'utf8' }).filter((file) =>
  file.endsWith('.d.ts'),
);
for (const file of files) {
  const lines = codeOnly(readFileSync(join(dist, file), 'utf8')).split('\n');
  lines.forEach((line, index) => {
    if (/(?<![\w$.])any(?![\w$])/.test(line)) {
      found.push(`${relative('.', join(dist, file))}:${index + 1}: ${line.trim()}`);
    }
  });
}
if (files.length === 0) {
  console.error(`check-dts-any: no .d.ts files in ${dist} (run npm run build first)`);
  process.exit(2);
}
if (found.length > 0) {
  console.error(`check-dts-any: ${found.length} explicit any in public declarations:`);
  for (const line of found) console.error(`  ${line}`);
  process.exit(1);
}
console.log(`check-dts-any: ${files.length} declaration files, no explicit any`);
