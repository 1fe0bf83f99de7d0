import { type BatteryCheck, type BuildMachine, buildLoopMachine } from './batteryCheck.js';
import { boundsCheck } from './boundsCheck.js';
import { closedLoopChecks } from './closedLoopChecks.js';
import { decisionChecks } from './decisionChecks.js';

/** Every check of SPEC §11's behaviour battery, in the order the spec lists them. */
export const batteryChecks: readonly BatteryCheck[] = [
  ...decisionChecks.slice(0, 5),
  boundsCheck,
  ...decisionChecks.slice(5),
  ...closedLoopChecks,
];

export interface CheckResult {
  name: string;
  passed: boolean;
  /** The check's note when it passed, why it failed otherwise. */
  detail: string;
  durationMs: number;
}

/**
 * Runs the battery against the machines `build` makes (by default `createLoopMachine`), one check at
 * a time, reporting each result as it finishes.
 * @example const results = await runBattery({ onResult: (r) => console.log(r.name, r.passed) });
 */
export async function runBattery({
  build = buildLoopMachine,
  checks = batteryChecks,
  onResult,
}: {
  build?: BuildMachine;
  checks?: readonly BatteryCheck[];
  onResult?: (result: CheckResult) => void;
} = {}): Promise<CheckResult[]> {
  const results: CheckResult[] = [];
  for (const check of checks) {
    const started = performance.now();
    let result: CheckResult;
    try {
      const detail = await check.run(build);
      result = { name: check.name, passed: true, detail, durationMs: performance.now() - started };
    } catch (error) {
      const detail = error instanceof Error ? error.message : String(error);
      result = { name: check.name, passed: false, detail, durationMs: performance.now() - started };
    }
    results.push(result);
    onResult?.(result);
  }
  return results;
}
