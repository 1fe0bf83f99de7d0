import { writeFileSync } from 'node:fs';
import type { Command } from 'commander';
import { loopHealth } from '../../health/loopHealth.js';
import { parseWindow } from '../../health/parseWindow.js';
import { renderHealthPage } from '../../viewer/health/renderHealthPage.js';
import { type FailIf, parseFailIf, tripped } from '../../whatif/failIf.js';
import { parseKnobs, parseSweep } from '../../whatif/parseKnobs.js';
import { whatIf } from '../../whatif/whatIf.js';
import { whatIfLines } from '../../whatif/whatIfLines.js';
import { writeFault } from '../cliFault.js';
import { cliOutput } from '../cliOutput.js';
import {
  type RunStoreFlags,
  runStoreName,
  runStoreOptions,
  usingRunStore,
} from '../openRunStore.js';

interface WhatIfFlags extends RunStoreFlags {
  loop?: string;
  since?: string;
  until?: string;
  set: string[];
  sweep?: string;
  failIf: string[];
  json?: boolean;
  html?: string;
}

const collect = (value: string, all: string[]) => [...all, value];

/** `loopchart what-if`: stored runs re-decided under a candidate config, without calling a step. */
export function register(program: Command): void {
  const command = program.command('what-if');
  command
    .description(
      're-decide stored runs under a candidate config without calling any step: outcomes, successes kept or lost, cost saved',
    )
    .addHelpText(
      'after',
      `
Knobs: maxRetries, maxAttempts, maxCost (or none), stall (2..50, 2:verdict, off), fallback (true/false),
deadlineMs (or none), idempotent, maxRetryDelayMs, retryDelayMs. An unchanged knob keeps its recorded value.
A run is exact where its record holds every step the candidate needs, else "unknown beyond step N".
--fail-if counts a status (or ok) over exact runs against every recorded run, so unknown runs never count
as kept; cost and time compare exact runs on both sides. Exit 1 when a gate trips.

Examples:
  loopchart what-if --loop invoice --set maxRetries=1
  loopchart what-if --loop invoice --sweep maxRetries=0..6 --json
  loopchart what-if --loop invoice --set maxRetries=1 --fail-if "proceed < 0.95 * recorded"`,
    );
  runStoreOptions(command)
    .option('--loop <id>', 'only this loop (machine id)')
    .option('--since <when>', 'only runs saved since: 24h, 7d, 30m, or an ISO date')
    .option('--until <when>', 'only runs saved before: 24h, 7d, 30m, or an ISO date')
    .option('--set <knob=value>', 'change a knob of the recorded config; repeatable', collect, [])
    .option(
      '--sweep <knob=range>',
      'one knob over a range or list: maxRetries=0..6, maxCost=5,10,none',
    )
    .option(
      '--fail-if <condition>',
      'exit 1 when it holds, e.g. "proceed < 0.95 * recorded"; repeatable',
      collect,
      [],
    )
    .option('--json', 'print the report as JSON')
    .option('--html <file>', 'also write the health page with the comparison on top to this file')
    .action(async (flags: WhatIfFlags, cmd: Command) => {
      const out = cliOutput(cmd);
      const usage = (message: string): never => {
        cmd.error(`what-if: ${message}`, { exitCode: 2, code: 'loopchart.what-if.usage' });
        throw new Error(message);
      };
      const window = parseWindow(flags, Date.now(), '--');
      if (typeof window === 'string') usage(window);
      const base = parseKnobs(flags.set);
      if (typeof base === 'string') return usage(`--set ${base}`);
      const sweep = flags.sweep === undefined ? undefined : parseSweep(flags.sweep);
      if (typeof sweep === 'string') return usage(`--sweep ${sweep}`);
      const gates: FailIf[] = flags.failIf.map((text) => {
        const gate = parseFailIf(text);
        return typeof gate === 'string' ? usage(`--fail-if ${gate}`) : gate;
      });
      const scope = {
        ...(flags.loop === undefined ? {} : { loop: flags.loop }),
        ...(window as object),
      };
      const [report, health] = await usingRunStore(
        flags,
        async (store) =>
          [
            await whatIf(store, {
              ...scope,
              ...(sweep
                ? {
                    candidates: sweep.candidates.map((c) => ({ ...base, ...c })),
                    sweep: sweep.knob,
                  }
                : { config: base }),
            }),
            flags.html ? await loopHealth(store, scope) : undefined,
          ] as const,
      );
      if (flags.html && health) {
        const page = renderHealthPage(health, { source: runStoreName(flags.db), whatIf: report });
        try {
          writeFileSync(flags.html, page);
        } catch (error) {
          throw writeFault(error, flags.html) ?? error;
        }
        if (!flags.json)
          out.out(out.c.dim(`health page with the comparison written to ${flags.html}`));
      }
      if (flags.json) out.out(JSON.stringify(report, null, 2));
      else if (report.candidates.every((c) => c.runs === 0)) {
        out.out(
          `no loop runs in ${runStoreName(flags.db)}${flags.loop ? ` (loop ${flags.loop})` : ''}`,
        );
      } else {
        for (const block of whatIfLines(report)) {
          out.out(out.c.bold(block.title));
          for (const line of block.lines) out.out(`  ${line}`);
        }
      }
      const trips = gates.flatMap((gate) =>
        report.candidates.flatMap((candidate) => tripped(gate, candidate) ?? []),
      );
      if (trips.length > 0) {
        cmd.error(`what-if: gate tripped — ${trips.join('; ')}`, {
          exitCode: 1,
          code: 'loopchart.what-if.gate',
        });
      }
    });
}
