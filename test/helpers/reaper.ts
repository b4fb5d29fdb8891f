/**
 * A watchdog for what fault tests start. The test process kills its servers
 * and workers itself when it can; this covers when it cannot (a test runner
 * that SIGKILLs a timed-out fork runs no cleanup and no 'exit' handler). A
 * detached shell polls the test process once a second; once it is gone, the
 * shell kills every process still listed and removes the listed directories.
 *
 * A pid is only killed while its command line still carries the marker it was
 * listed with, so a pid reused by someone else's process is left alone.
 */
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const SCRIPT = `
parent=$1; list=$2
# The parent's start time tells it from a later process that reuses its pid.
started() { sed 's/^.*) //' "/proc/$1/stat" 2>/dev/null | cut -d' ' -f20; }
birth=$(started "$parent")
while [ -n "$birth" ] && [ "$(started "$parent")" = "$birth" ]; do sleep 1; done
[ -f "$list" ] || exit 0
while read -r kind target marker; do
  p=
  case "$kind" in
    pidfile) [ -f "$target" ] && p=$(head -n1 "$target") ;;
    pid) p=$target ;;
  esac
  [ -n "$p" ] && grep -qaF -- "$marker" "/proc/$p/cmdline" 2>/dev/null && kill -KILL "$p"
done < "$list"
sleep 2
while read -r kind target marker; do [ "$kind" = dir ] && rm -rf -- "$target"; done < "$list"
rm -f -- "$list"
`;

type Entry = { kind: 'pidfile' | 'pid'; target: string; marker: string } | { kind: 'dir'; target: string };

const entries = new Set<Entry>();
let listFile: string | null = null;

function write(): void {
  const lines = [...entries].map((e) => (e.kind === 'dir' ? `dir ${e.target} -` : `${e.kind} ${e.target} ${e.marker}`));
  writeFileSync(listFile!, lines.length ? `${lines.join('\n')}\n` : '');
}

function ensureStarted(): void {
  if (listFile) return;
  listFile = path.join(tmpdir(), `ak-faults-reaper-${process.pid}.list`);
  write();
  const child = spawn('sh', ['-c', SCRIPT, 'reaper', String(process.pid), listFile], {
    detached: true,
    stdio: 'ignore',
  });
  child.unref();
}

/** Lists a process (by pid, or by the pid file it writes) or a directory; returns the function that unlists it. */
export function reap(entry: Entry): () => void {
  if (/\s/.test(entry.target) || ('marker' in entry && /\s/.test(entry.marker)))
    throw new Error('reaper entries may not contain spaces');
  ensureStarted();
  entries.add(entry);
  write();
  return () => {
    entries.delete(entry);
    write();
  };
}
