import type { CheckpointStore } from '../../../stores/kit/CheckpointStore.js';
import { loopHealth } from '../../health/loopHealth.js';
import { parseWindow } from '../../health/parseWindow.js';
import { renderHealthPage } from './renderHealthPage.js';

/** The viewer's `/health` path. */
export const HEALTH_PATH = '/health';

/**
 * The answer to `GET /health?loop=…&since=…&until=…`: the health page over `store`, a 400 for a
 * bad query, or a 404 saying how to give the viewer a store.
 * @example const { status, type, body } = await healthResponse(store, new URL(request.url, 'http://viewer'));
 */
export async function healthResponse(
  store: CheckpointStore | undefined,
  url: URL,
  source = 'the store',
): Promise<{ status: number; type: string; body: string }> {
  if (!store) {
    return {
      status: 404,
      type: 'text/plain',
      body: 'no store: start the viewer with one (loopchart view --db runs.db, or startViewer({ healthStore }))\n',
    };
  }
  // an empty parameter (a form left blank) leaves its end of the window open
  const param = (key: string) => url.searchParams.get(key) || undefined;
  const window = parseWindow({ since: param('since'), until: param('until') }, Date.now());
  if (typeof window === 'string') return { status: 400, type: 'text/plain', body: `${window}\n` };
  const loop = url.searchParams.get('loop');
  try {
    const report = await loopHealth(store, { ...window, ...(loop ? { loop } : {}) });
    return {
      status: 200,
      type: 'text/html; charset=utf-8',
      body: renderHealthPage(report, { source, runsLink: true }),
    };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { status: 500, type: 'text/plain', body: `health report failed: ${message}\n` };
  }
}
