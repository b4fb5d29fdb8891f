/** The JSON projection of a view: the view itself, pretty-printed and newline-terminated. */
import type { RecordView } from '../core/schemas/views.ts';

export function jsonProjection(view: RecordView): string {
  return `${JSON.stringify(view, null, 2)}\n`;
}
