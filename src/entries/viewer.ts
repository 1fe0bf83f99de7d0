export type { ChartEdge, ChartLayout, ChartNode } from '../tools/viewer/ChartLayout.js';
export type { ConnectToViewerOptions, ViewerConnection } from '../tools/viewer/connectToViewer.js';
export { connectToViewer } from '../tools/viewer/connectToViewer.js';
export { layoutChart } from '../tools/viewer/layoutChart.js';
export type { InspectionMessage } from '../tools/viewer/parseInspection.js';
export { parseInspection } from '../tools/viewer/parseInspection.js';
export type { RunStoreLimits } from '../tools/viewer/RunStore.js';
export {
  DEFAULT_MAX_EVENTS_PER_RUN,
  DEFAULT_MAX_RUNS,
  RunStore,
} from '../tools/viewer/RunStore.js';
export type { EventSummary, RunView } from '../tools/viewer/runView.js';
export type { RunViewer, ViewerOptions } from '../tools/viewer/startViewer.js';
export { DEFAULT_VIEWER_PORT, startViewer } from '../tools/viewer/startViewer.js';
export type { WireEvent } from '../tools/viewer/toWireEvent.js';
export { toWireEvent } from '../tools/viewer/toWireEvent.js';
export type { RunReportInput } from '../tools/viewer/writeRunReport.js';
export { renderRunReport, writeRunReport } from '../tools/viewer/writeRunReport.js';
