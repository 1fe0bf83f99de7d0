import { LOOP_STATUSES } from '../../core/vocabulary/statuses.js';
import type { WhatIfSummary } from './WhatIfReport.js';

/** What a `--fail-if` condition can name. */
export const GATE_METRICS = ['ok', 'cost', 'time', 'unknown', 'lost', ...LOOP_STATUSES] as const;
export type GateMetric = (typeof GATE_METRICS)[number];

/** A parsed `--fail-if` condition: `metric op factor × (recorded | 1)`. */
export interface FailIf {
  text: string;
  metric: GateMetric;
  op: '<' | '<=' | '>' | '>=';
  factor: number;
  /** The right side is the metric's recorded value (times `factor`), not a plain number. */
  ofRecorded: boolean;
}

const SHAPE =
  /^\s*([a-z_]+)\s*(<=|>=|<|>)\s*(?:(\d+(?:\.\d+)?)\s*\*\s*recorded|(recorded)|(\d+(?:\.\d+)?))\s*$/;

/**
 * Parses a CI gate such as `proceed < 0.95 * recorded`, `ok < recorded`, `cost > 1.1 * recorded`
 * or `unknown > 50`, or returns why it does not parse.
 * @example parseFailIf('proceed < 0.95 * recorded')
 */
export function parseFailIf(text: string): FailIf | string {
  const match = SHAPE.exec(text);
  const metric = match?.[1] as GateMetric | undefined;
  if (!match || !metric || !(GATE_METRICS as readonly string[]).includes(metric)) {
    return `'${text}': write <metric> <op> <number> [* recorded] with <op> one of < <= > >= and <metric> one of ${GATE_METRICS.join(', ')}`;
  }
  const ofRecorded = match[3] !== undefined || match[4] !== undefined;
  const factor = Number(match[3] ?? match[5] ?? 1);
  return { text: text.trim(), metric, op: match[2] as FailIf['op'], factor, ofRecorded };
}

/**
 * The metric under the candidate and as recorded. A status or `ok` counts the candidate's exact
 * runs against every recorded run, so a run whose outcome is unknown never counts as kept; `cost`
 * and `time` sum the exact runs on both sides; `unknown` and `lost` are 0 as recorded.
 */
export function gateValues(summary: WhatIfSummary, metric: GateMetric): [number, number] {
  switch (metric) {
    case 'ok':
      return [summary.successes.kept + summary.successes.gained, summary.successes.recorded];
    case 'cost':
      return [summary.cost.counterfactual, summary.cost.recorded];
    case 'time':
      return [summary.timeMs.counterfactual, summary.timeMs.recorded];
    case 'unknown':
      return [summary.unknown, 0];
    case 'lost':
      return [summary.successes.lost, 0];
    default:
      return [summary.counterfactual[metric] ?? 0, summary.recorded[metric] ?? 0];
  }
}

/** The sentence saying why `gate` trips for `summary`, or undefined when it holds. */
export function tripped(gate: FailIf, summary: WhatIfSummary): string | undefined {
  const [value, recorded] = gateValues(summary, gate.metric);
  const limit = gate.factor * (gate.ofRecorded ? recorded : 1);
  const trips =
    gate.op === '<'
      ? value < limit
      : gate.op === '<='
        ? value <= limit
        : gate.op === '>'
          ? value > limit
          : value >= limit;
  if (!trips) return undefined;
  const against = gate.ofRecorded ? ` (recorded ${round(recorded)})` : '';
  return `${gate.text}: ${gate.metric} would be ${round(value)}${against}, limit ${round(limit)}`;
}

const round = (value: number) => Number(value.toFixed(3));
