import { writeFileSync } from 'node:fs';
import type { Command } from 'commander';
import { healthLines } from '../../health/healthLines.js';
import { HEALTH_THRESHOLD_NAMES, type HealthThresholds } from '../../health/healthThresholds.js';
import { loopHealth } from '../../health/loopHealth.js';
import { parseWindow } from '../../health/parseWindow.js';
import { renderHealthPage } from '../../viewer/health/renderHealthPage.js';
import { writeFault } from '../cliFault.js';
import { cliOutput } from '../cliOutput.js';
import {
  type RunStoreFlags,
  runStoreName,
  runStoreOptions,
  usingRunStore,
} from '../openRunStore.js';

interface HealthFlags extends RunStoreFlags {
  loop?: string;
  since?: string;
  until?: string;
  threshold: string[];
  json?: boolean;
  html?: string;
  failOnFlags?: boolean;
}

/** `loopchart health`: the red flags and the numbers behind them, over many stored runs. */
export function register(program: Command): void {
  const health = program.command('health');
  // commander puts its "(Did you mean …?)" on a line of its own: keep every error on one line.
  const { outputError } = health.configureOutput();
  health.configureOutput({
    outputError: (text, write) =>
      (outputError ?? ((t: string) => write(t)))(`${text.replace(/\s*\n(?=.)/g, ' ')}`, write),
  });
  health.description(
    'the health of stored runs per loop: outcomes, iterations, verdicts, stalls, red flags',
  );
  runStoreOptions(health)
    .option('--loop <id>', 'only this loop (machine id)')
    .option('--since <when>', 'only runs saved since: 24h, 7d, 30m, or an ISO date')
    .option('--until <when>', 'only runs saved before: 24h, 7d, 30m, or an ISO date')
    .option(
      '--threshold <name=value>',
      `override a red-flag threshold (${HEALTH_THRESHOLD_NAMES.join(', ')}); repeatable`,
      (value: string, all: string[]) => [...all, value],
      [],
    )
    .option('--json', 'print the report as JSON (docs/health.md describes it)')
    .option('--html <file>', 'also write the health page (the plots) to this file')
    .option('--fail-on-flags', 'exit 1 when any loop raises a red flag')
    .action(async (flags: HealthFlags, command: Command) => {
      const out = cliOutput(command);
      const usage: (message: string) => never = (message) => {
        command.error(`health: ${message}`, { exitCode: 2, code: 'loopchart.health.usage' });
        throw new Error(message);
      };
      const window = parseWindow(flags, Date.now(), '--');
      if (typeof window === 'string') usage(window);
      const thresholds = parseThresholds(flags.threshold, usage);
      const report = await usingRunStore(flags, (store) =>
        loopHealth(store, {
          ...(flags.loop === undefined ? {} : { loop: flags.loop }),
          ...window,
          thresholds,
        }),
      );
      if (flags.html) {
        const page = renderHealthPage(report, { source: runStoreName(flags.db) });
        try {
          writeFileSync(flags.html, page);
        } catch (error) {
          throw writeFault(error, flags.html) ?? error;
        }
        if (!flags.json) out.out(out.c.dim(`health page written to ${flags.html}`));
      }
      if (flags.json) out.out(JSON.stringify(report, null, 2));
      else {
        const sections = healthLines(report);
        if (sections.length === 0)
          out.out(`no loop runs in ${runStoreName(flags.db)}${windowText(flags)}`);
        for (const section of sections) {
          out.out(out.c.bold(section.title));
          for (const line of section.lines) {
            const text = `  ${line.label.padEnd(12)} ${line.text}`;
            out.out(line.flag ? out.c.red(text) : text);
          }
        }
      }
      if (flags.failOnFlags && report.loops.some((loop) => loop.flags.length > 0)) {
        command.error('health: red flags raised (--fail-on-flags)', {
          exitCode: 1,
          code: 'loopchart.health.flags',
        });
      }
    });
}

function windowText({ loop, since, until }: HealthFlags): string {
  const parts = [
    loop && `loop ${loop}`,
    since && `since ${since}`,
    until && `until ${until}`,
  ].filter(Boolean);
  return parts.length ? ` (${parts.join(', ')})` : '';
}

function parseThresholds(
  pairs: readonly string[],
  usage: (message: string) => never,
): Partial<HealthThresholds> {
  const thresholds: Partial<HealthThresholds> = {};
  for (const pair of pairs) {
    const [name = '', value = ''] = pair.split('=');
    if (!(HEALTH_THRESHOLD_NAMES as string[]).includes(name)) {
      usage(`--threshold '${pair}': the name must be one of ${HEALTH_THRESHOLD_NAMES.join(', ')}`);
    }
    const number = Number(value);
    const integer = name === 'minRuns' || name === 'minInvalidVerdicts';
    if (
      value === '' ||
      !Number.isFinite(number) ||
      (integer ? !Number.isInteger(number) || number < 1 : number < 0 || number > 1)
    ) {
      usage(
        `--threshold '${pair}': ${name} must be ${integer ? 'an integer ≥ 1' : 'a share from 0 to 1'}`,
      );
    }
    thresholds[name as keyof HealthThresholds] = number;
  }
  return thresholds;
}
