/**
 * `npm start` on one machine: runs the API and one worker as two processes,
 * forwards SIGINT/SIGTERM to both (they drain), and exits when both have.
 * If either dies, the other is stopped too, so a supervisor sees the failure.
 */
import { spawn, type ChildProcess } from 'node:child_process';

const children: ChildProcess[] = ['api/server.ts', 'worker/main.ts'].map((entry) =>
  spawn(process.execPath, [entry], { stdio: 'inherit', env: process.env }),
);

let exiting = false;
function stopAll(signal: NodeJS.Signals) {
  for (const child of children) if (child.exitCode === null) child.kill(signal);
}
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    exiting = true;
    stopAll(signal);
  });
}
let running = children.length;
for (const child of children) {
  child.on('exit', (code) => {
    running--;
    if (!exiting && code !== 0) {
      exiting = true;
      process.exitCode = code ?? 1;
      stopAll('SIGTERM');
    }
    if (running === 0) process.exit(process.exitCode ?? 0);
  });
}
