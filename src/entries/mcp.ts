// loopchart/mcp: stored runs over the Model Context Protocol (docs/api.md). Needs
// @modelcontextprotocol/sdk installed beside loopchart.
export type { RunsMcpOptions } from '../tools/mcp/createRunsMcpServer.js';
export { createRunsMcpServer } from '../tools/mcp/createRunsMcpServer.js';
export {
  MAX_LINE_BYTES,
  StdioLineTransport,
} from '../tools/mcp/StdioLineTransport.js';
