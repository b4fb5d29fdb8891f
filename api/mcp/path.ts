/** Where the tool protocol is served: the protected resource OAuth tokens are bound to. */
export const MCP_PATH = '/mcp/participate';
/** The same read tools with no credential (and no write tools): a public endpoint apart from the protected one. */
export const MCP_PUBLIC_PATH = '/mcp/read';
/** The conventional address: the public read endpoint again, for clients configured with the bare path. */
export const MCP_ROOT_PATH = '/mcp';
