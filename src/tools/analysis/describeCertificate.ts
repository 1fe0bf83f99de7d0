import type { Bound, LoopCertificate } from '../../core/certificate/certificateTypes.js';
import type { PipelineCertificate } from '../../runners/pipeline/certifyPipeline.js';

/** A duration as people read it: `850 ms`, `12 s`, `3 min`, `2.5 h`. */
export function formatMs(ms: number): string {
  if (ms < 1000) return `${ms} ms`;
  if (ms < 60_000) return `${round(ms / 1000)} s`;
  if (ms < 3_600_000) return `${round(ms / 60_000)} min`;
  return `${round(ms / 3_600_000)} h`;
}

const round = (n: number) => Math.round(n * 10) / 10;
const value = (n: number | null, unbounded = 'unbounded') => (n === null ? unbounded : String(n));

/**
 * The one-line badge of a certificate: `worst case: 7 calls, cost 0.42, 3 min`.
 * @example certificateBadge(certifyLoop(config)) // 'worst case: 8 calls, cost unbounded, 15 min'
 */
export function certificateBadge(certificate: LoopCertificate | PipelineCertificate): string {
  const calls =
    certificate.kind === 'loop' ? certificate.calls.total.value : certificate.calls.total;
  const cost = certificate.kind === 'loop' ? certificate.cost.value : certificate.cost;
  const time = certificate.kind === 'loop' ? certificate.timeMs.value : certificate.timeMs;
  return `worst case: ${value(calls)} calls, cost ${value(cost)}, ${time === null ? 'time unbounded' : formatMs(time)}`;
}

/** A path as one line: `attempt ok → validate correctable → refine ok → …`. */
export function describePath(bound: Bound): string {
  return bound.path
    .map((step) => `${step.step} ${step.outcome}${step.waitMs ? ` (wait ${step.waitMs} ms)` : ''}`)
    .join(' → ');
}

/** A certificate as lines of text: the badge, each bound and the path that reaches it. */
export function describeCertificate(certificate: LoopCertificate | PipelineCertificate): string[] {
  if (certificate.kind === 'pipeline') {
    return [
      `pipeline ${certificate.id}: ${certificateBadge(certificate)}`,
      `  layers: ${certificate.layers.map((layer) => layer.join(' + ')).join(' → ')}; slowest: ${certificate.criticalPath.join(' → ')}`,
      ...Object.values(certificate.stages).flatMap((stage) =>
        describeCertificate(stage).map((line) => `  ${line}`),
      ),
    ];
  }
  const { calls, cost, timeMs } = certificate;
  const line = (label: string, bound: Bound, shown: string) =>
    `  ${label}: ${shown}${bound.reason ? ` (${bound.reason})` : ''} — ${describePath(bound)} ⇒ ${bound.status}`;
  return [
    `loop ${certificate.id}: ${certificateBadge(certificate)}`,
    `  calls by step: attempt ${calls.attempt.value}, validate ${calls.validate.value}, refine ${calls.refine.value}, fallback ${calls.fallback.value}; model calls ${calls.model.value}`,
    line('calls', calls.total, value(calls.total.value)),
    line('cost', cost, value(cost.value)),
    line('time', timeMs, timeMs.value === null ? 'unbounded' : formatMs(timeMs.value)),
    `  pauses for a person are not counted (${certificate.pauses})`,
  ];
}
