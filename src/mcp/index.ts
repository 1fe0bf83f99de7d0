// loopchart/mcp: stored runs over the Model Context Protocol (docs/api.md). Needs
// @modelcontextprotocol/sdk installed beside loopchart.
export type { RunsMcpOptions } from './createRunsMcpServer.js';
export { createRunsMcpServer } from './createRunsMcpServer.js';
