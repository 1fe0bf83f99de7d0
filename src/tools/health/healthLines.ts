import type { HealthReport, LoopHealth } from './HealthReport.js';
import { amount, percentOf } from './healthFormat.js';

/** One labelled line of a loop's section: `label` padded, then its text. */
export interface HealthLine {
  label: string;
  text: string;
  /** A red flag's line. */
  flag?: true;
}

/**
 * A report as plain text sections, one per loop: the terminal form of `loopchart health`.
 * @example for (const section of healthLines(report)) console.log(section.title, section.lines);
 */
export function healthLines(report: HealthReport): { title: string; lines: HealthLine[] }[] {
  return report.loops.map((loop) => ({
    title: `loop ${loop.loop}: ${loop.runs} runs (${loop.finished} finished${unfinished(loop)})`,
    lines: linesOf(loop),
  }));
}

function unfinished({ unfinished: { running, paused } }: LoopHealth): string {
  return running + paused === 0 ? '' : `, ${running} running, ${paused} paused`;
}

function linesOf(loop: LoopHealth): HealthLine[] {
  const { outcomes, finished, iterations, verdicts, stalls, cost, failures, intermittent } = loop;
  const statuses = Object.entries(outcomes)
    .filter(([, n]) => n > 0)
    .sort(([, a], [, b]) => b - a)
    .map(([status, n]) => `${status} ${n} (${percentOf(n, finished)})`);
  const histogram = iterations.histogram
    .map((n, i) => `${i}${i === iterations.maxRetries ? ' (cap)' : ''}: ${n}`)
    .join(' · ');
  const invalid = (['correctable', 'fundamental', 'no_diagnostic', 'malformed'] as const).map(
    (kind) =>
      `${kind} ${verdicts.counts[kind]} (${percentOf(verdicts.counts[kind], verdicts.invalid)})`,
  );
  const top = stalls.fingerprints[0];
  const failed = Object.entries(failures)
    .filter(([, n]) => n > 0)
    .map(([kind, n]) => `${kind} ${n}`);
  const lines: HealthLine[] = [
    { label: 'outcomes', text: statuses.join(' · ') || 'none finished' },
    {
      label: 'iterations',
      text: `${histogram}; mean ${amount(iterations.mean)}, ${iterations.atCap} at the cap of ${iterations.maxRetries} (${percentOf(iterations.atCap, finished)})`,
    },
    {
      label: 'verdicts',
      text: `valid ${verdicts.counts.valid}; of ${verdicts.invalid} invalid: ${invalid.join(' · ')}${verdicts.untracedRuns ? `; ${verdicts.untracedRuns} runs without a trace` : ''}`,
    },
    {
      label: 'stalls',
      text: top
        ? `${stalls.runs} runs (${percentOf(stalls.runs, finished)}); most on ${top.fingerprint} (${top.runs} runs)`
        : 'none',
    },
    {
      label: 'fallback',
      text: `${outcomes.fallback} runs (${percentOf(outcomes.fallback, finished)})`,
    },
    {
      label: 'cost',
      text: `${amount(cost.total)} in all, ${amount(cost.mean)} per run, at most ${amount(cost.max)}`,
    },
    { label: 'failures', text: failed.join(' · ') || 'none' },
    {
      label: 'intermittent',
      text: `${intermittent.successes} successes after a transient retry, in ${intermittent.runs} runs`,
    },
  ];
  if (loop.flags.length === 0) lines.push({ label: 'red flags', text: 'none' });
  for (const flag of loop.flags) {
    lines.push({
      label: 'RED FLAG',
      text: `${flag.title} [${flag.id}]: ${flag.message}`,
      flag: true,
    });
  }
  return lines;
}
