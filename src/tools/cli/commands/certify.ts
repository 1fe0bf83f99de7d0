import { type Command, Option } from 'commander';
import { certifyLoop } from '../../../core/certificate/certifyLoop.js';
import type { LoopConfig } from '../../../core/vocabulary/config.js';
import { isLoopConfigError } from '../../../core/vocabulary/LoopConfigError.js';
import { certifyPipeline } from '../../../runners/pipeline/certifyPipeline.js';
import { describeCertificate } from '../../analysis/describeCertificate.js';
import { cliOutput } from '../cliOutput.js';
import { loadLoops } from '../loadLoops.js';

/**
 * `loopchart certify <file>`: the worst case of every loop and pipeline a module exports (as for
 * `serve --loops`) — calls per step, cost, time — each with the path that reaches it.
 */
export function register(program: Command): void {
  program
    .command('certify')
    .description(
      'print the worst case (calls, cost, time) of every loop and pipeline a module exports, before any run',
    )
    .argument('<file>', 'a JS module exporting loops and/or pipelines (as for serve --loops)')
    .addOption(
      new Option('--format <format>', 'output format').choices(['text', 'json']).default('text'),
    )
    .action(async (file: string, flags: { format: 'text' | 'json' }, command: Command) => {
      const out = cliOutput(command);
      const loaded = await loadLoops(file);
      if (typeof loaded === 'string') {
        command.error(`certify: ${loaded.replace('--loops', 'file')}`, {
          exitCode: 2,
          code: 'loopchart.certify.file',
        });
        return;
      }
      try {
        const certificates = [
          ...Object.values(loaded.loops).map((loop) => certifyLoop(loop as LoopConfig)),
          ...Object.values(loaded.pipelines).map((plan) => certifyPipeline(plan)),
        ];
        out.out(
          flags.format === 'json'
            ? JSON.stringify(certificates, null, 2)
            : certificates.flatMap(describeCertificate).join('\n'),
        );
      } catch (error) {
        if (!isLoopConfigError(error)) throw error;
        command.error(`certify: ${error.message}`, {
          exitCode: 2,
          code: 'loopchart.certify.config',
        });
      }
    });
}
