/** What every tool result's text content must be: a short summary, never a copy of its structuredContent. */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { expect } from 'vitest';

/** The longest summary a tool answers: a few lines, however large the answer. */
export const MAX_SUMMARY_CHARS = 1000;

export function expectSummary(result: CallToolResult): string {
  expect(result.content).toHaveLength(1);
  const { text } = result.content[0] as { type: 'text'; text: string };
  expect(text.length).toBeGreaterThan(0);
  expect(text.length).toBeLessThanOrEqual(MAX_SUMMARY_CHARS);
  // Not JSON at all, so never the structured content again.
  expect(() => JSON.parse(text)).toThrow();
  return text;
}
