import type { ImplFigures, Micros } from './measure.js';
import type { OverFloor } from './overFloor.js';

type Pair = Micros;
const NONE: Pair = { cpu: Number.NaN, wall: Number.NaN };
const divide = (a: Pair, b: Pair): Pair => ({ cpu: a.cpu / b.cpu, wall: a.wall / b.wall });
const shareSaved = (off: Pair, on: Pair): Pair => ({
  cpu: 1 - off.cpu / on.cpu,
  wall: 1 - off.wall / on.wall,
});

/** The targets, each checked on wall-clock time (the CPU-time figure alongside). */
export function targetRows(
  figures: readonly ImplFigures[],
  full: number,
  noise: OverFloor | undefined,
) {
  const find = (prefix: string) => {
    const found = figures.find((f) => f.name.startsWith(prefix));
    if (!found) throw new Error(`no figures for ${prefix}`);
    return found;
  };
  const lc = find('loopchart runLoop');
  const plan = find('loopchart runLoop(plan)');
  const perCall = find('loopchart, config built per call');
  const bare = find('loopchart, trace');
  const xs = find('minimal XState');
  const routed = find('XState floor + a routing state');
  const chart = find("loopchart's chart");
  const lg = find('LangGraph');
  const seq = (f: ImplFigures) => f.sequential;
  const conc = (f: ImplFigures) => f.concurrent ?? NONE;
  // ÷ the floor from adjacent pairs where measured so, else from the rounds
  const seqOver = (f: ImplFigures) => f.overFloor?.sequential ?? divide(seq(f), seq(xs));
  const concOver = (f: ImplFigures) => f.overFloor?.concurrent ?? divide(conc(f), conc(xs));
  const heap = (f: ImplFigures) => f.concurrent?.heapBytes ?? Number.NaN;
  const heapRatio = heap(lc) / heap(xs);
  const targets: Array<[string, Pair, '≤' | '≥', number]> = [
    ['loopchart ÷ XState floor, sequential', seqOver(lc), '≤', 1.3],
    [`loopchart ÷ XState floor, ${full} in flight`, concOver(lc), '≤', 1.3],
    ['loopchart runLoop(plan) ÷ XState floor, sequential', seqOver(plan), '≤', 1.3],
    [`loopchart runLoop(plan) ÷ XState floor, ${full} in flight`, concOver(plan), '≤', 1.3],
    ['loopchart, config built per call ÷ XState floor, sequential', seqOver(perCall), '≤', 1.3],
    [
      `loopchart, config built per call ÷ XState floor, ${full} in flight`,
      concOver(perCall),
      '≤',
      1.3,
    ],
    ['LangGraph ÷ loopchart, sequential', divide(seq(lg), seq(lc)), '≥', 20],
    [`LangGraph (${lg.inFlight} in flight) ÷ loopchart`, divide(conc(lg), conc(lc)), '≥', 20],
    ['loopchart ÷ XState floor, heap per loop held', { cpu: heapRatio, wall: heapRatio }, '≤', 2],
    [
      'trace+keys+fingerprints share, sequential',
      shareSaved(seqOver(bare), seqOver(lc)),
      '≤',
      0.15,
    ],
    [
      `trace+keys+fingerprints share, in flight`,
      shareSaved(concOver(bare), concOver(lc)),
      '≤',
      0.15,
    ],
  ];
  const row = (target: string, value: Pair) => ({
    target,
    measured: Number(value.wall.toFixed(2)),
    'by CPU time': Number(value.cpu.toFixed(2)),
  });
  return [
    ...targets.map(([target, value, limit, bound]) => ({
      ...row(target, value),
      limit: `${limit} ${bound}`,
      met: (limit === '≤' ? value.wall <= bound : value.wall >= bound) ? 'yes' : 'NO',
    })),
    // One implementation against itself: a ratio above is only as good as this is near 1.
    ...(['sequential', 'in flight'] as const).map((how) => ({
      ...row(
        `(noise) the same machine built again ÷ XState floor, ${how}`,
        (how === 'sequential' ? noise?.sequential : noise?.concurrent) ?? NONE,
      ),
      limit: '—',
      met: '—',
    })),
    // What the visible routing state itself costs: loopchart against the floor that has one.
    {
      ...row(
        '(floor) loopchart ÷ XState floor with a routing state, sequential',
        divide(seq(lc), seq(routed)),
      ),
      limit: '—',
      met: '—',
    },
    {
      ...row(
        `(floor) loopchart ÷ XState floor with a routing state, in flight`,
        divide(conc(lc), conc(routed)),
      ),
      limit: '—',
      met: '—',
    },
    {
      ...row(
        '(floor) XState with a routing state ÷ minimal, sequential',
        divide(seq(routed), seq(xs)),
      ),
      limit: '—',
      met: '—',
    },
    // What loopchart's chart costs XState with loopchart's work taken out, and what that work adds.
    ...(['sequential', 'in flight'] as const).flatMap((how) => {
      const pick = how === 'sequential' ? seqOver : concOver;
      return [
        {
          ...row(
            `(floor) loopchart's chart, its work taken out ÷ XState floor, ${how}`,
            pick(chart),
          ),
          limit: '—',
          met: '—',
        },
        {
          ...row(
            `(own work) loopchart ÷ its chart with the work taken out, ${how}`,
            divide(pick(lc), pick(chart)),
          ),
          limit: '—',
          met: '—',
        },
      ];
    }),
    // The most any XState design can reach against LangGraph: the floor's own lead.
    {
      ...row('(ceiling) LangGraph ÷ XState floor, sequential', divide(seq(lg), seq(xs))),
      limit: '—',
      met: '—',
    },
    {
      ...row('(ceiling) LangGraph ÷ XState floor, in flight', divide(conc(lg), conc(xs))),
      limit: '—',
      met: '—',
    },
  ];
}
