// A loop watched live: loopchart's viewer, and Stately's inspector on the same socket.
import { createWebSocketInspector } from '@statelyai/inspect';
import { createLoopMachine, runLoop, runLoopMachine } from 'loopchart';
import { connectToViewer, type RunView, startViewer, writeRunReport } from 'loopchart/viewer';

export async function watchLive(): Promise<RunView[]> {
  const viewer = await startViewer({ port: 0 });
  const connection = connectToViewer(viewer.inspectUrl);
  const headline = await runLoop<string, string>(
    {
      maxRetries: 3,
      attempt: ({ input, feedback }) => (feedback ? input : `${input}: ${'very '.repeat(8)}long`),
      validate: (text) => (text.length <= 24 ? { valid: true } : { valid: false }),
    },
    'Quiet headphones',
    { inspect: connection.inspect },
  );
  await connection.close();
  const stubborn = createLoopMachine<string, string>({
    maxRetries: 1,
    attempt: ({ attempt }) => `draft ${attempt}`,
    validate: () => ({ valid: false }),
  });
  const inspector = createWebSocketInspector({ url: viewer.inspectUrl });
  const exhausted = await runLoopMachine(stubborn, 'write the notice', {
    inspect: inspector.inspect,
  });
  inspector.stop();
  const runs = viewer.runs();
  await writeRunReport({ machine: stubborn, outcome: exhausted, file: 'reports/stubborn.html' });
  await writeRunReport({
    outcome: headline,
    title: runs[0]?.label ?? 'headline',
    file: 'h.html',
    config: { attempt: () => '', validate: () => ({ valid: true }) },
  });
  await viewer.close();
  return runs;
}
