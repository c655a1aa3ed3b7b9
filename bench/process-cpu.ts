// CPU seconds (user + system) of processes on Linux, from /proc: throughput depends on what else
// the machine runs, CPU per operation much less.
import fs from 'node:fs/promises';
import path from 'node:path';

const ticks = 100; // USER_HZ on Linux

async function stat(pid: number): Promise<{ ppid: number; own: number; children: number }> {
  const text = await fs.readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '');
  // Fields after the command (which may hold spaces) in parentheses: 4 is ppid, 14-17 the times.
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  return {
    ppid: Number(fields[1]),
    own: Number(fields[11]) + Number(fields[12]),
    children: Number(fields[13]) + Number(fields[14]),
  };
}

/** The CPU seconds process `pid` has used so far. */
export async function processCpuSeconds(pid: number): Promise<number> {
  return (await stat(pid)).own / ticks;
}

/**
 * The CPU seconds the PostgreSQL cluster in `postgresDirectory` has used so far: its postmaster's,
 * its live children's and those of children that exited.
 */
export async function clusterCpuSeconds(postgresDirectory: string): Promise<number> {
  const postmaster = Number(
    (await fs.readFile(path.join(postgresDirectory, 'postmaster.pid'), 'utf8')).split('\n')[0],
  );
  let total = 0;
  for (const entry of await fs.readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const pid = Number(entry);
    const process = await stat(pid);
    if (pid === postmaster) total += process.own + process.children;
    else if (process.ppid === postmaster) total += process.own;
  }
  return total / ticks;
}
