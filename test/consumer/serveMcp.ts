// Stored runs served over HTTP and to an agent over MCP, with the loops they may answer.
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { LoopConfig } from 'loopchart';
import { createRunsMcpServer } from 'loopchart/mcp';
import { definePipeline } from 'loopchart/pipeline';
import { type RunDetail, serveRuns } from 'loopchart/serve';
import { SqliteCheckpointStore } from 'loopchart/sqlite';

const invoice: LoopConfig<{ customer: string }, string> = {
  id: 'invoice',
  review: { beforeProceed: true },
  attempt: ({ input }) => `invoice for ${input.customer}`,
  validate: () => ({ valid: true }),
};
const report = definePipeline<string>({ id: 'report' })
  .stage('draft', { loop: { attempt: ({ input }) => input, validate: () => ({ valid: true }) } })
  .plan();

export async function serveAndMcp(file: string): Promise<RunDetail | undefined> {
  const store = new SqliteCheckpointStore(file);
  const server = await serveRuns({
    store,
    loops: { invoice },
    pipelines: { report },
    port: 0,
    token: 'secret',
    allowedOrigins: ['https://ops.example.com'],
  });
  const detail = await fetch(`${server.url}api/runs/r1`).then(
    (response) => response.json() as Promise<RunDetail>,
  );
  await server.close();
  const mcp = createRunsMcpServer({
    store,
    loops: { invoice },
    pipelines: { report },
    answers: true,
  });
  await mcp.connect(new StdioServerTransport());
  await mcp.close();
  store.close();
  return detail;
}
