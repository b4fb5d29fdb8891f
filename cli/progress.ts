/**
 * Progress for long operator commands: a redrawn bar with an ETA on a
 * terminal, and plain lines (every 10 %) when the output is a pipe or a log.
 */
import type { WriteStream } from 'node:tty';

export interface ProgressSink {
  isTTY?: boolean;
  columns?: number;
  write(text: string): unknown;
}

export function formatDuration(seconds: number): string {
  if (!Number.isFinite(seconds)) return '?';
  const s = Math.max(0, Math.round(seconds));
  return s >= 60 ? `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s` : `${s}s`;
}

export function createProgress(
  label: string,
  out: ProgressSink = process.stderr as WriteStream,
  now = () => performance.now(),
) {
  const started = now();
  let lastDecile = -1;
  return function report({ done, total }: { done: number; total: number }): void {
    const fraction = total === 0 ? 1 : done / total;
    const elapsed = (now() - started) / 1000;
    const eta = done === 0 ? Number.NaN : (elapsed / done) * (total - done);
    const numbers = `${done}/${total} ${Math.floor(fraction * 100)}% elapsed ${formatDuration(elapsed)} eta ${formatDuration(eta)}`;
    if (out.isTTY) {
      const width = Math.max(10, Math.min(40, (out.columns ?? 80) - numbers.length - label.length - 6));
      const filled = Math.round(fraction * width);
      out.write(
        `\r${label} [${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${numbers}${done === total ? '\n' : ''}`,
      );
      return;
    }
    const decile = Math.floor(fraction * 10);
    if (decile !== lastDecile || done === total) {
      lastDecile = decile;
      out.write(`${label}: ${numbers}\n`);
    }
  };
}
