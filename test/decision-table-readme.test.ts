import { readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { decisionTableMarkdown } from '../src/core/decisions/decisionTableMarkdown.js';

const README = new URL('../README.md', import.meta.url);
const BLOCK =
  /(<!-- generated:decision-table -->\n)([\s\S]*?)(<!-- \/generated:decision-table -->)/;

describe("the README's decision table", () => {
  it('is generated from the rows the machine and routeAfterValidation read (LOOPCHART_UPDATE_README=1 rewrites it)', () => {
    const generated = decisionTableMarkdown();
    const readme = readFileSync(README, 'utf8');
    if (process.env.LOOPCHART_UPDATE_README === '1') {
      writeFileSync(
        README,
        readme.replace(BLOCK, (_all, head, _old, tail) => `${head}${generated}${tail}`),
      );
    }
    const block = BLOCK.exec(readFileSync(README, 'utf8'))?.[2];
    expect(block, 'README has a generated:decision-table block').toBeDefined();
    expect(block).toBe(generated);
  });

  it('names every guard of the routing and failed states in order', () => {
    const generated = decisionTableMarkdown();
    const order = ['isMalformed', 'isValid', 'isFundamental', 'lacksDiagnostic', 'isStalled'];
    const at = order.map((guard) => generated.indexOf(`\`${guard}\``));
    expect(at.every((i) => i > 0)).toBe(true);
    expect([...at].sort((a, b) => a - b)).toEqual(at);
    expect(generated).toContain('`withinCeiling` | `refining` |');
  });
});
