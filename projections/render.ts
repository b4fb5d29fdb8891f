/**
 * One record's three projections from its view, built once: JSON and
 * Markdown are pure functions of the view, HTML is the Astro page rendered
 * in this process.
 */
import type { RecordView } from '../core/schemas/views.ts';
import type { ProjectionFormat } from './files.ts';
import type { HtmlRenderer } from './html.ts';
import { jsonProjection } from './json.ts';
import { markdownProjection } from './markdown.ts';

export type Projections = Record<ProjectionFormat, Buffer>;

export async function renderProjections(html: HtmlRenderer, view: RecordView): Promise<Projections> {
  return {
    html: await html.render(view),
    json: Buffer.from(jsonProjection(view)),
    markdown: Buffer.from(markdownProjection(view)),
  };
}

/** One format of a view: what the API renders on demand. */
export async function renderProjection(
  html: HtmlRenderer,
  view: RecordView,
  format: ProjectionFormat,
): Promise<Buffer> {
  if (format === 'html') return html.render(view);
  return Buffer.from(format === 'json' ? jsonProjection(view) : markdownProjection(view));
}
