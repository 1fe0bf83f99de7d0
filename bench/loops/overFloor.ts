import type { BenchContext } from '../harness/BenchSection.js';
import type { Micros } from './measure.js';
import { pairedOverhead } from './pairedOverhead.js';
import type { LoopImplementation } from './workload.js';

/** An implementation's time ÷ the floor's, one at a time and in flight, by wall clock and CPU. */
export interface OverFloor {
  sequential: Micros;
  concurrent: Micros;
}

const ratioOf = (measured: { wallPercent: number; cpuPercent: number }): Micros => ({
  wall: 1 + measured.wallPercent / 100,
  cpu: 1 + measured.cpuPercent / 100,
});

/**
 * Each implementation ÷ `floor`, measured in adjacent pairs of segments (`pairedOverhead`): the
 * ratios the targets are read from. Separate rounds minutes apart drift with the machine's load
 * and the process's GC mode by more than the gap a target asks about; neighbouring segments do not.
 */
export async function overFloor(
  impls: readonly LoopImplementation[],
  floor: LoopImplementation,
  inFlight: number,
  ctx: BenchContext,
): Promise<Map<string, OverFloor>> {
  const figures = new Map<string, OverFloor>();
  for (const impl of impls) {
    const sequential = await pairedOverhead(impl, floor, {
      pairs: ctx.quick ? 3 : 15,
      loops: ctx.quick ? 50 : 300,
    });
    const concurrent = await pairedOverhead(impl, floor, {
      pairs: ctx.quick ? 1 : 3,
      loops: inFlight,
      inFlight: true,
    });
    ctx.log(
      `${impl.name} ÷ ${floor.name}, paired: ${ratioOf(sequential).wall.toFixed(2)} one at a time, ${ratioOf(concurrent).wall.toFixed(2)} ${inFlight} in flight`,
    );
    figures.set(impl.name, { sequential: ratioOf(sequential), concurrent: ratioOf(concurrent) });
  }
  return figures;
}
