/** The page's stylesheet (inline in the served page and in reports). */
export const PAGE_STYLES = `
:root { color-scheme: light; --ink: #1f2328; --muted: #656d76; --line: #d0d7de; --accent: #3b5bdb;
  --current: #fff3bf; --path: #1971c2; --current-line: #e8590c; --cap: crimson; --human: #7048e8; --unbounded: #c62828; --unsure: #b26a00; --bounded: #2e7d32; --ok: #2b8a3e; --bad: #c92a2a; }
* { box-sizing: border-box; }
body { margin: 0; font: 14px/1.45 system-ui, sans-serif; color: var(--ink); background: #f6f8fa; }
body > header { display: flex; gap: 12px; align-items: baseline; padding: 10px 16px; background: #fff;
  border-bottom: 1px solid var(--line); }
body > header h1 { font-size: 16px; margin: 0; }
.page-kind { color: var(--muted); }
#nav { display: flex; gap: 10px; margin-left: auto; }
#nav a { color: var(--accent); text-decoration: none; }
#connection { font-size: 12px; color: var(--muted); }
#connection.live { color: var(--ok); }
#connection.down { color: var(--bad); }
main { display: grid; grid-template-columns: 240px 1fr; min-height: calc(100vh - 45px); }
main.single { grid-template-columns: 1fr; }
main.single > aside { display: none; }
aside { border-right: 1px solid var(--line); background: #fff; padding: 8px; }
aside h2 { font-size: 13px; text-transform: uppercase; color: var(--muted); margin: 4px 6px 8px; }
#runs { list-style: none; margin: 0; padding: 0; }
#runs button { display: grid; grid-template-columns: 1fr auto; gap: 2px 8px; width: 100%; text-align: left;
  border: 1px solid transparent; background: none; padding: 6px 8px; border-radius: 6px; cursor: pointer; font: inherit; }
#runs button[aria-current='true'] { background: #eef2ff; border-color: #c5d0fa; }
#runs .label { grid-column: 1; grid-row: 1; overflow-wrap: anywhere; }
#runs li.linked { padding-left: 14px; }
.linked-runs { list-style: none; margin: 0; padding: 0; display: grid; gap: 4px; }
.linked-runs li { display: flex; gap: 8px; align-items: baseline; flex-wrap: wrap; }
button.link { font: inherit; border: 0; background: none; padding: 0; color: var(--accent); cursor: pointer; text-decoration: underline; }
#runs .state { grid-column: 1; grid-row: 2; font-size: 12px; color: var(--muted); }
.mini-badge { grid-column: 2; grid-row: 1 / span 2; align-self: center; justify-self: end; font: 12px ui-monospace, monospace; padding: 1px 7px;
  border-radius: 9px; background: var(--accent); color: #fff; white-space: nowrap; }
.mini-badge.at-cap { background: var(--cap); }
#run { padding: 12px 16px; min-width: 0; }
.run-head { display: flex; flex-wrap: wrap; gap: 4px 10px; align-items: baseline; }
.run-head h2 { margin: 0; font-size: 18px; }
.run-head .worst-case { padding: 1px 8px; border-radius: 9px; background: var(--accent); color: #fff; font: 12px ui-monospace, monospace; }
.muted { color: var(--muted); }
.banner { margin: 10px 0; padding: 10px 12px; border-radius: 8px; border: 1px solid var(--line); background: #fff; }
.banner .status { font: 600 15px ui-monospace, monospace; margin-right: 10px; }
.banner.ok { border-color: var(--ok); background: #ebfbee; }
.banner.bad { border-color: var(--bad); background: #fff5f5; }
.banner.bad .status { color: var(--bad); }
.banner.running .status { color: var(--accent); }
.banner h3 { font-size: 12px; margin: 8px 0 4px; text-transform: uppercase; color: var(--muted); }
.loop-error { display: grid; grid-template-columns: max-content 1fr; gap: 2px 12px; margin: 0; }
.loop-error dt { font: 12px ui-monospace, monospace; color: var(--muted); }
.loop-error dd { margin: 0; }
pre { margin: 0; white-space: pre-wrap; word-break: break-word; font: 12px/1.4 ui-monospace, monospace; }
.chart-wrap { background: #fff; border: 1px solid var(--line); border-radius: 8px; padding: 6px 8px; }
.chart-tools { display: flex; gap: 6px; align-items: center; font-size: 13px; margin-bottom: 4px; }
.chart-tools button, .resume { font: inherit; font-size: 13px; border: 1px solid var(--line); background: #fff; border-radius: 5px; padding: 1px 9px; cursor: pointer; }
.chart-tools label { display: flex; gap: 4px; align-items: center; margin-left: 6px; }
.chart-tools .hint { margin-left: auto; font-size: 12px; }
svg.chart { display: block; width: 100%; cursor: grab; touch-action: none; user-select: none; font: 13px ui-monospace, monospace; }
svg.chart:active { cursor: grabbing; }
.legend { display: flex; flex-wrap: wrap; gap: 4px 18px; list-style: none; margin: 4px 0 0; padding: 0; font-size: 12px; color: var(--muted); }
.legend li { display: flex; gap: 6px; align-items: center; }
.legend .key { display: inline-block; width: 26px; height: 0; border-top: 3px solid var(--path); }
.legend .key.back { border-top: 2px dashed var(--accent); }
.legend .key.back.cycle-capped { border-top: 2px dashed var(--bounded); }
.legend .key.back.cycle-bounded { border-top: 2px dashed var(--bounded); border-top-style: double; border-top-width: 3px; }
.legend .key.back.cycle-gated { border-top: 2px dotted var(--bounded); }
.legend .key.back.cycle-unbounded { border-top: 3px dashed var(--unbounded); }
.legend .key.back.cycle-cant_tell { border-top: 2px dashed var(--unsure); }
.legend .key.current { width: 18px; height: 12px; border: 2.5px solid var(--current-line); background: var(--current); border-radius: 4px; }
.legend .key.quiet { width: 18px; height: 12px; border: 1px solid #d0d7de; border-radius: 4px; opacity: 0.6; }
.legend .key.badge { width: auto; height: auto; border: 0; padding: 0 7px; border-radius: 9px; background: var(--accent); color: #fff; font: 11px ui-monospace, monospace; }
.node rect, .node circle { fill: #fff; stroke: #8c959f; stroke-width: 1.2; }
.node.type-compound > rect, .node.type-parallel > rect { fill: #f6f8fa; }
.node.type-final rect.inner { fill: none; }
.node.type-initial circle { fill: var(--ink); stroke: none; }
.node.type-any rect { stroke-dasharray: 4 3; fill: #f6f8fa; }
.node.type-any text { font-style: italic; fill: var(--muted); }
.node.human rect { stroke: var(--human); }
.node.visited > rect { fill: #e7f5ff; stroke: var(--path); stroke-width: 2; }
.node.visited.type-compound > rect, .node.visited.type-parallel > rect { fill: #f3f9ff; stroke-width: 1.5; }
.node.visited text { font-weight: 600; }
.node.current > rect { fill: var(--current); stroke: var(--current-line); stroke-width: 2.5; }
.node.current.live > rect:first-of-type { animation: pulse 1.2s ease-in-out infinite; }
@keyframes pulse { 50% { stroke-width: 5; stroke-opacity: 0.45; } }
.node text { fill: var(--ink); }
.node.quiet, .edge.quiet, .edge-label.quiet { opacity: 0.32; }
.compound-label { font-weight: 600; }
.edge { fill: none; stroke: #6e7781; stroke-width: 1.3; }
.edge.kind-always { stroke: #9aa3ad; }
.edge.back-edge { stroke: var(--accent); stroke-dasharray: 6 4; }
.edge.cycle-capped { stroke: var(--bounded); }
.edge.cycle-bounded { stroke: var(--bounded); stroke-dasharray: 10 3 2 3; }
.edge.cycle-gated { stroke: var(--bounded); stroke-dasharray: 2 4; }
.edge.cycle-unbounded { stroke: var(--unbounded); stroke-width: 2; }
.edge.back-edge.cycle-unbounded { stroke-dasharray: 8 3; }
.edge.cycle-cant_tell { stroke: var(--unsure); stroke-width: 2; }
.edge.taken, .edge.back-edge.taken { stroke: var(--path); stroke-width: 3; }
.arrow { fill: #6e7781; }
.arrow-taken { fill: var(--path); }
.edge-label rect { fill: #fff; opacity: 0.92; }
.edge-label text { font-size: 12px; fill: #57606a; }
.edge-label.back-edge text { fill: var(--accent); }
.edge-label.cycle-capped text, .edge-label.cycle-gated text, .edge-label.cycle-bounded text { fill: var(--bounded); }
.edge-label.cycle-unbounded text { fill: var(--unbounded); font-weight: 600; }
.edge-label.cycle-cant_tell text { fill: var(--unsure); font-weight: 600; }
.edge-label.taken rect { fill: #e7f5ff; stroke: var(--path); stroke-width: 1; opacity: 1; }
.edge-label.taken text { fill: var(--ink); }
.edge-label .count { font-weight: 700; fill: var(--path); }
.loop-badge rect { fill: var(--accent); }
.loop-badge.at-cap rect { fill: var(--cap); }
.loop-badge text { fill: #fff; font-weight: 600; }
.panels { display: grid; grid-template-columns: minmax(0, 3fr) minmax(0, 2fr); gap: 12px; margin-top: 12px; align-items: start; }
.panels.one { grid-template-columns: minmax(0, 1fr); }
.column { display: grid; gap: 12px; min-width: 0; }
@media (max-width: 900px) { .panels { grid-template-columns: minmax(0, 1fr); } }
.panel { background: #fff; border: 1px solid var(--line); border-radius: 8px; padding: 8px 12px; min-width: 0; }
.panel h3 { font-size: 12px; text-transform: uppercase; color: var(--muted); margin: 6px 0; }
.timeline, .events { list-style: none; margin: 0; padding: 0; font-size: 13px; }
.mode-live .timeline, .mode-live .events { max-height: 60vh; overflow: auto; }
.resume { margin-top: 6px; }
.resume[hidden] { display: none; }
.timeline li { display: flex; flex-wrap: wrap; gap: 2px 8px; padding: 4px 0; border-bottom: 1px solid #eaeef2; }
.timeline .at { font-family: ui-monospace, monospace; color: var(--muted); }
.timeline .state { font-weight: 600; }
.timeline .rationale, .banner .rationale { white-space: pre-wrap; }
.timeline .rationale { flex-basis: 100%; color: var(--muted); }
.timeline .cost { font-family: ui-monospace, monospace; color: var(--muted); }
.timeline .track { flex-basis: 100%; height: 4px; background: #eaeef2; border-radius: 2px; }
.timeline .bar { display: block; height: 4px; background: var(--accent); border-radius: 2px; }
.pill { font-size: 11px; padding: 0 6px; border-radius: 8px; background: #eef2ff; }
.pill.bad { background: #fff5f5; color: var(--bad); }
.events .kind { font-family: ui-monospace, monospace; color: var(--muted); }
.warning { color: var(--bad); }
@media (max-width: 700px) {
  body > header { padding: 8px 10px; flex-wrap: wrap; }
  main { grid-template-columns: minmax(0, 1fr); min-height: 0; }
  aside { border-right: 0; border-bottom: 1px solid var(--line); }
  #runs { max-height: 30vh; overflow: auto; }
  #run { padding: 10px 4px; }
  .chart-wrap { padding: 4px 0; border-width: 1px 0; border-radius: 0; }
  .chart-tools { padding: 0 4px; }
  .legend { padding: 0 4px; }
  .chart-tools .hint { display: none; }
}
`;
