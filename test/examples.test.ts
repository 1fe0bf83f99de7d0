import { afterEach, describe, expect, it, vi } from 'vitest';

/** Runs an example module (top-level await included) and returns what it printed. */
async function runExample(path: string): Promise<string> {
  const lines: string[] = [];
  vi.spyOn(console, 'log').mockImplementation((...args: unknown[]) => {
    lines.push(args.join(' '));
  });
  await import(path);
  return lines.join('\n');
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('examples', () => {
  it('document-verification: the incomplete report is refined, the contradictory plan is not', async () => {
    const printed = await runExample('../examples/document-verification/document-verification.js');
    expect(printed).toMatch(/^CLM-2001: proceed after 2 request cycle\(s\)$/m);
    expect(printed).toMatch(
      /^ {2}#3 refine \(retry 1\/3\)\n {2}#7 refine \(retry 2\/3\)\n {2}#11 proceed/m,
    );
    expect(printed).toMatch(/^CLM-2002: terminate_with_partial after 0 request cycle\(s\)$/m);
    expect(printed).toMatch(
      /The error is fundamental \("adjudicate: planned both synchronous and event-driven"\)/,
    );
    expect(printed).toMatch(/^ {2}partial: CLM-2002, report by Dr\. Okafor$/m);
  });

  it('structured-output: the AI SDK mock model is reasked with the paths until the JSON fits', async () => {
    const printed = await runExample('../examples/structured-output/structured-output.js');
    expect(printed).toMatch(/^proceed after 1 reask\(s\), 3 model calls, 320 tokens$/m);
    expect(printed).toContain(
      [
        'Your last answer was rejected:',
        'The JSON does not match the schema (2 issues):',
        '- priority: Invalid option: expected one of "low"|"normal"|"high"',
        '- customer.email: Invalid input: expected string, received undefined',
        'Reply with the corrected JSON only.',
      ].join('\n'),
    );
    expect(printed).toMatch(/^the rate limit stayed out of the reask: true$/m);
    expect(printed).toMatch(/^ticket: high priority, from dana@example\.com$/m);
    expect(printed).toMatch(/^refusal: terminate_with_partial after 1 model call\(s\)$/m);
  });
});
