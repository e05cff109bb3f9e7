// cpu-share measures how two busy processes, each the leader of its own session as `npm test`'s
// steps are (scripts/test.ts spawns them detached), share one core when one of them has nice 10:
// first with only the process's nice value set, then with its session's autogroup nice set too
// (/proc/PID/autogroup, sched(7)). Where the kernel has autogroups, the first shares evenly.
// Run: `npx node bench/cpu-share.ts` (Linux; pins both to CPU 0 with taskset; six seconds each).
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { setPriority } from 'node:os';

/** busy starts a shell loop on CPU 0 in a session of its own. */
function busy(): ChildProcess {
  return spawn('taskset', ['-c', '0', 'sh', '-c', 'while :; do :; done'], {
    detached: true,
    stdio: 'ignore',
  });
}

/** ticks is the CPU time (user + system, in clock ticks) a process has used. */
function ticks(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return Number(fields[11]) + Number(fields[12]);
}

for (const autogroup of [false, true]) {
  const usual = busy();
  const low = busy();
  setPriority(low.pid!, 10);
  if (autogroup) writeFileSync(`/proc/${low.pid}/autogroup`, '10');
  await new Promise((r) => setTimeout(r, 6000));
  const group = existsSync(`/proc/${low.pid}/autogroup`)
    ? readFileSync(`/proc/${low.pid}/autogroup`, 'utf8').trim()
    : 'no autogroups';
  console.log(
    `${autogroup ? 'nice 10 and autogroup nice 10' : 'nice 10 only'}: nice 0 got ${ticks(usual.pid!)} ticks, nice 10 got ${ticks(low.pid!)} (${group})`,
  );
  process.kill(-usual.pid!);
  process.kill(-low.pid!);
}
