import {
  FAILURE_ROWS,
  type RouteRow,
  routerDecision,
  type ShapeFact,
  VERDICT_ROWS,
} from './decisionTable.js';

const FACT_WORDS: Record<ShapeFact, [string, string]> = {
  canReattempt: ['`maxAttempts` > 1', '`maxAttempts` = 1'],
  canRefine: ['`maxRetries` > 0 and `maxAttempts` > 1', '`maxRetries` = 0 or `maxAttempts` = 1'],
  canExhaust: ['`maxAttempts` > `maxRetries`', '`maxAttempts` ≤ `maxRetries`'],
  canFallBack: ['a fallback', 'no fallback'],
  canStall: ['stall detection can fire', 'stall detection cannot fire'],
  hasBudget: ['`maxCost`', 'no `maxCost`'],
  hasNonIdempotentStep: ['a step that is not idempotent', 'every step idempotent'],
  hasDeadline: ['a `deadlineMs`', '`deadlineMs: null`'],
  reviewsBeforeProceed: ['`review.beforeProceed`', 'no `review.beforeProceed`'],
  reviewsAfterFailedValidation: [
    '`review.afterFailedValidation`',
    'no `review.afterFailedValidation`',
  ],
};

function facts(row: RouteRow): string {
  const when = Object.entries(row.when ?? {}) as [ShapeFact, boolean][];
  return when.length
    ? when.map(([fact, holds]) => FACT_WORDS[fact][holds ? 0 : 1]).join(', ')
    : 'always';
}

function ordered(rows: readonly RouteRow[]): string {
  const lines = rows.map(
    (row, i) =>
      `| ${i + 1} | ${row.guard ? `\`${row.guard}\`` : '*otherwise*'} | \`${row.target}\` | ${facts(row)} |`,
  );
  return [
    '| # | guard | goes to | in the chart when the config has |',
    '|---|---|---|---|',
    ...lines,
  ]
    .join('\n')
    .concat('\n');
}

/**
 * The README's decision tables, generated from the rows: the pure router's table, then the
 * `routing` and `failed` states' branches in order.
 * @example writeFileSync('table.md', decisionTableMarkdown());
 */
export function decisionTableMarkdown(): string {
  const rows: readonly RouteRow[] = VERDICT_ROWS;
  const router = rows
    .filter((row) => row.result !== undefined)
    .map((row) => `| ${row.result} | ${row.budget} | \`${routerDecision(row)}\` |`);
  return [
    '| validation result | budget | decision |',
    '|---|---|---|',
    ...router,
    '',
    'Inside the machine the `routing` state takes the first of these branches whose guard holds;',
    'a config holds only the rows its shape can reach:',
    '',
    ordered(VERDICT_ROWS),
    'A failed step (a thrown failure, see [docs/failures.md](docs/failures.md)) goes through the `failed` state the same way:',
    '',
    ordered(FAILURE_ROWS),
  ].join('\n');
}
