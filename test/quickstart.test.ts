import { readFileSync } from 'node:fs';
import { expect, it, vi } from 'vitest';

const source = readFileSync(
  new URL('../examples/quickstart/quickstart.ts', import.meta.url),
  'utf8',
);
const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');

it("the README's quickstart is the tested example, verbatim", () => {
  const code = source.slice(source.indexOf('import { runLoop }')).trim();
  expect(readme).toContain(code);
});

it('the quickstart example runs and ends as proceed after one refine', async () => {
  const log = vi.spyOn(console, 'log').mockImplementation(() => {});
  await import('../examples/quickstart/quickstart.js');
  expect(log).toHaveBeenCalledWith(
    'proceed after 1 refine(s): Noise-cancelling headphones: quiet, light, all-day battery.',
  );
  log.mockRestore();
});
