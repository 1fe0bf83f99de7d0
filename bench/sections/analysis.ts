import { analyzeCycles, findUnboundedCycles, machineGraph } from 'loopchart/analysis';
import { type AnyStateMachine, createMachine } from 'xstate';
import type { BenchContext, BenchSection } from '../harness/BenchSection.js';

// The static termination check on large machines: a 2,000-state ring of timers (one cycle through
// every state, the case that made the component search quadratic) and 500 states each with 20
// transitions, automated and user-driven mixed (thousands of cycles: the search stops at its limit).

const CHAIN = 2000;
const DENSE = 500;
const FAN_OUT = 20;

function chain(size: number): AnyStateMachine {
  const states: Record<string, object> = {};
  for (let i = 0; i < size; i++) states[`s${i}`] = { after: { 10: `s${(i + 1) % size}` } };
  return createMachine({ id: 'chain', initial: 's0', states });
}

function dense(size: number, fanOut: number): AnyStateMachine {
  let seed = 42;
  const next = () => {
    seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
    return seed % size;
  };
  const states: Record<string, object> = {};
  for (let i = 0; i < size; i++) {
    const on: Record<string, string> = {};
    for (let k = 0; k < fanOut; k++) on[`E${k}`] = `s${next()}`;
    states[`s${i}`] = {
      on,
      after: { 10: `s${next()}` },
      ...(i % 5 === 0 ? { always: { target: `s${next()}`, guard: 'ready' } } : {}),
    };
  }
  return createMachine({ id: 'dense', initial: 's0', states }, { guards: { ready: () => false } });
}

const round = (value: number) => Number(value.toFixed(1));

interface Timing {
  wallMs: number;
  cpuMs: number;
}

/** The median of `rounds` runs by CPU time (under load, wall time also counts other processes). */
function median(rounds: number, run: () => void): Timing {
  const times = Array.from({ length: rounds }, () => {
    const cpu = process.cpuUsage();
    const started = performance.now();
    run();
    const wallMs = performance.now() - started;
    const used = process.cpuUsage(cpu);
    return { wallMs, cpuMs: (used.user + used.system) / 1000 };
  }).sort((a, b) => a.cpuMs - b.cpuMs);
  return times[Math.floor(times.length / 2)] as Timing;
}

function measure(ctx: BenchContext, name: string, machine: AnyStateMachine) {
  const rounds = ctx.quick ? 3 : 9;
  for (let i = 0; i < 2; i++) analyzeCycles(machine); // JIT warm-up
  const unbounded = median(rounds, () => findUnboundedCycles(machine));
  const full = median(rounds, () => analyzeCycles(machine));
  const report = analyzeCycles(machine);
  ctx.log(
    `${name}: findUnboundedCycles ${round(unbounded.cpuMs)} ms CPU, ${round(unbounded.wallMs)} ms wall`,
  );
  return {
    machine: name,
    states: Object.keys(machine.root.states).length,
    transitions: machineGraph(machine).edges.length,
    'findUnboundedCycles cpu ms': round(unbounded.cpuMs),
    'findUnboundedCycles wall ms': round(unbounded.wallMs),
    'analyzeCycles cpu ms': round(full.cpuMs),
    unbounded: report.unbounded.length,
    gated: report.gated.length,
  };
}

export const section: BenchSection = {
  name: 'analysis',
  title: 'Static termination check (findUnboundedCycles) on large machines',
  async run(ctx) {
    const rows = [
      measure(ctx, `ring of ${CHAIN} timers`, chain(CHAIN)),
      measure(ctx, `${DENSE} states × ${FAN_OUT + 1} transitions`, dense(DENSE, FAN_OUT)),
    ];
    const [ring, mesh] = rows as [(typeof rows)[0], (typeof rows)[0]];
    return {
      rows,
      [`${CHAIN}-state chain, CPU ms (target < 100)`]: ring['findUnboundedCycles cpu ms'],
      [`${DENSE}-state dense machine, CPU ms (target < 100)`]: mesh['findUnboundedCycles cpu ms'],
      'before this change':
        '2,000-state chain 0.6 s (issue 23): the component search ran once per state',
      peers:
        'no peer (LangGraph, Temporal, p-retry, xstate/graph) checks a graph for unbounded loops',
    };
  },
};
