/** The SDK's client on a tool endpoint, and what every tool result's text content must be. */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { expect } from 'vitest';

/** A connected client of the endpoint at `url`, sending the direct credential `secret` when given. */
export async function connectTools(url: string, name: string, secret?: string): Promise<Client> {
  const client = new Client({ name, version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(url), {
      requestInit: secret ? { headers: { Authorization: `Bearer ${secret}` } } : {},
    }),
  );
  return client;
}

/** The longest summary a tool answers: a few lines, however large the answer. */
export const MAX_SUMMARY_CHARS = 1000;

/** A short summary, never a copy of the structuredContent. */
export function expectSummary(result: CallToolResult): string {
  expect(result.content).toHaveLength(1);
  const { text } = result.content[0] as { type: 'text'; text: string };
  expect(text.length).toBeGreaterThan(0);
  expect(text.length).toBeLessThanOrEqual(MAX_SUMMARY_CHARS);
  // Not JSON at all, so never the structured content again.
  expect(() => JSON.parse(text)).toThrow();
  return text;
}
