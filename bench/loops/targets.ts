import type { ImplFigures } from './measure.js';

/** The targets, each checked on CPU time (wall-clock ratio alongside). */
export function targetRows(figures: readonly ImplFigures[], full: number) {
  const find = (prefix: string) => {
    const found = figures.find((f) => f.name.startsWith(prefix));
    if (!found) throw new Error(`no figures for ${prefix}`);
    return found;
  };
  const lc = find('loopchart runLoop');
  const bare = find('loopchart, trace');
  const xs = find('minimal XState');
  const lg = find('LangGraph');
  const conc = (f: ImplFigures) =>
    f.concurrent ?? { cpu: Number.NaN, wall: Number.NaN, heapBytes: Number.NaN };
  const rows: Array<[string, number, number, string, boolean]> = [];
  const add = (name: string, cpu: number, wall: number, limit: '≤' | '≥', bound: number) =>
    rows.push([name, cpu, wall, `${limit} ${bound}`, limit === '≤' ? cpu <= bound : cpu >= bound]);
  add(
    'loopchart ÷ XState floor, sequential',
    lc.sequential.cpu / xs.sequential.cpu,
    lc.sequential.wall / xs.sequential.wall,
    '≤',
    1.3,
  );
  add(
    `loopchart ÷ XState floor, ${full} in flight`,
    conc(lc).cpu / conc(xs).cpu,
    conc(lc).wall / conc(xs).wall,
    '≤',
    1.3,
  );
  add(
    'LangGraph ÷ loopchart, sequential',
    lg.sequential.cpu / lc.sequential.cpu,
    lg.sequential.wall / lc.sequential.wall,
    '≥',
    20,
  );
  add(
    `LangGraph (${lg.inFlight} in flight) ÷ loopchart (${full})`,
    conc(lg).cpu / conc(lc).cpu,
    conc(lg).wall / conc(lc).wall,
    '≥',
    20,
  );
  const heap = conc(lc).heapBytes / conc(xs).heapBytes;
  add(`loopchart ÷ XState floor, heap per loop (${full} held)`, heap, heap, '≤', 2);
  add(
    'trace+keys+fingerprints share, sequential',
    1 - bare.sequential.cpu / lc.sequential.cpu,
    1 - bare.sequential.wall / lc.sequential.wall,
    '≤',
    0.15,
  );
  add(
    `trace+keys+fingerprints share, ${full} in flight`,
    1 - conc(bare).cpu / conc(lc).cpu,
    1 - conc(bare).wall / conc(lc).wall,
    '≤',
    0.15,
  );
  return rows.map(([target, cpu, wall, limit, met]) => ({
    target,
    measured: Number(cpu.toFixed(2)),
    'wall clock': Number(wall.toFixed(2)),
    limit,
    met: met ? 'yes' : 'NO',
  }));
}
