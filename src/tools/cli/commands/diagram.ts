import { type Command, Option } from 'commander';
import type { AnyStateMachine } from 'xstate';
import type { LoopCertificate } from '../../../core/certificate/certificateTypes.js';
import { certifyLoop } from '../../../core/certificate/certifyLoop.js';
import { createLoopMachine } from '../../../core/chart/compileLoop.js';
import type { LoopConfig } from '../../../core/vocabulary/config.js';
import { isLoopConfigError } from '../../../core/vocabulary/LoopConfigError.js';
import { toMachineJson } from '../../diagram/toMachineJson.js';
import { toMermaid } from '../../diagram/toMermaid.js';
import { cliOutput } from '../cliOutput.js';
import { integerFlag, numberFlag } from '../flags/integerFlag.js';
import { loadMachine } from '../loadMachine.js';

const LOOP_FLAGS = [
  'id',
  'maxRetries',
  'maxAttempts',
  'maxCost',
  'fallback',
  'review',
  'stall',
  'stallAfter',
  'idempotent',
];

interface DiagramFlags {
  format: 'mermaid' | 'json';
  machine?: string;
  direction?: 'TB' | 'LR';
  id?: string;
  maxRetries?: number;
  maxAttempts?: number;
  maxCost?: number;
  fallback?: boolean;
  review?: 'before' | 'after' | 'both';
  stall: boolean;
  stallAfter?: number;
  idempotent?: boolean;
  certificate?: boolean;
}

/**
 * `loopchart diagram`: prints the loop statechart a config builds, or any XState machine a module
 * exports (`--machine`), as Mermaid (with the termination check's verdicts) or as JSON.
 */
export function register(program: Command): void {
  program
    .command('diagram')
    .description(
      "print the loop's statechart for these options, or any machine (--machine), as Mermaid stateDiagram-v2 or JSON",
    )
    .addOption(
      new Option('--format <format>', 'output format')
        .choices(['mermaid', 'json'])
        .default('mermaid'),
    )
    .addOption(new Option('--direction <dir>', 'Mermaid layout direction').choices(['TB', 'LR']))
    .addOption(
      new Option(
        '--machine <file[#export]>',
        'draw an XState machine a JS module exports (its default or only one, or #export) instead of a loop',
      ).conflicts(LOOP_FLAGS),
    )
    .option('--id <id>', 'the machine id (default loop)')
    .option('--max-retries <n>', 'refine budget, 0–50 (default 3)', integerFlag(0, 50))
    .option(
      '--max-attempts <n>',
      'hard ceiling on attempts, 1–100 (default 2 × (maxRetries + 1))',
      integerFlag(1, 100),
    )
    .option('--max-cost <n>', 'cost budget > 0 (adds the budget_stop branches)', numberFlag(0))
    .option('--fallback', 'with a fallback step')
    .addOption(
      new Option('--review <when>', 'with a human review checkpoint').choices([
        'before',
        'after',
        'both',
      ]),
    )
    .addOption(new Option('--no-stall', 'without stall detection').conflicts('stallAfter'))
    .option(
      '--stall-after <n>',
      'stall after n identical fingerprints, 2–50 (default 3)',
      integerFlag(2, 50),
    )
    .option('--idempotent', 'every step idempotent (no unknown_outcome branch)')
    .addOption(
      new Option(
        '--certificate',
        "add the loop's worst case (certifyLoop: attempts, step calls, cost, time) as a note",
      ).conflicts('machine'),
    )
    .action(async (flags: DiagramFlags, command: Command) => {
      const out = cliOutput(command);
      let machine: AnyStateMachine;
      let certificate: LoopCertificate | undefined;
      if (flags.machine !== undefined) {
        const loaded = await loadMachine(flags.machine);
        if (typeof loaded === 'string') {
          command.error(`diagram: ${loaded}`, { exitCode: 2, code: 'loopchart.diagram.machine' });
          return;
        }
        machine = loaded;
      } else {
        try {
          const config = diagramConfig(flags);
          machine = createLoopMachine(config);
          if (flags.certificate) certificate = certifyLoop(config);
        } catch (error) {
          if (!isLoopConfigError(error)) throw error;
          command.error(`diagram: ${error.message}`, {
            exitCode: 2,
            code: 'loopchart.diagram.config',
          });
          return;
        }
      }
      out.out(
        flags.format === 'json'
          ? JSON.stringify(toMachineJson(machine), null, 2)
          : toMermaid(machine, {
              ...(flags.direction ? { direction: flags.direction } : {}),
              ...(certificate ? { certificate } : {}),
            }).trimEnd(),
      );
    });
}

/** The loop config the flags describe, with no-op steps: only its shape matters for a diagram. */
export function diagramConfig(flags: Partial<DiagramFlags>): LoopConfig {
  const review = flags.review;
  const config: LoopConfig = {
    attempt: () => undefined,
    validate: () => ({ valid: true }),
    refine: ({ input }) => input,
    ...(flags.id === undefined ? {} : { id: flags.id }),
    ...(flags.fallback ? { fallback: () => undefined } : {}),
    ...(flags.idempotent ? { idempotent: true } : {}),
    ...(review
      ? {
          review: { beforeProceed: review !== 'after', afterFailedValidation: review !== 'before' },
        }
      : {}),
    ...(flags.stall === false
      ? { stall: false as const }
      : flags.stallAfter === undefined
        ? {}
        : { stall: { after: flags.stallAfter } }),
  };
  const bounds = {
    maxRetries: flags.maxRetries,
    maxAttempts: flags.maxAttempts,
    maxCost: flags.maxCost,
  };
  for (const [key, value] of Object.entries(bounds)) {
    if (value !== undefined) Object.assign(config, { [key]: value });
  }
  return config;
}
