// Helpers the benchmarks share: a median, a mean time per call, the local verifier's entry of
// a built package, and the workerd processes a benchmark started (Miniflare runs workerd as a
// child), whose CPU some benchmarks read.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { resolve } from 'node:path';

/**
 * The entry with local verification of a built package: `pkg/local/` of this checkout, or of
 * the package directory `dir` (EDGEATTEST_PKG and the like); a build from before local
 * verification moved to `edgeattest/local` has it at its root.
 */
export function localEntry(dir) {
  const pkg = dir ? pathToFileURL(`${resolve(dir)}/`) : new URL('../../pkg/', import.meta.url);
  const local = new URL('local/index.js', pkg);
  return import(existsSync(local) ? local : new URL('index.js', pkg));
}

export const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

/** Mean ms per call over `n` calls. */
export async function measure(fn, n) {
  const start = performance.now();
  for (let i = 0; i < n; i++) await fn();
  return (performance.now() - start) / n;
}

/** The workerd processes under this one (Miniflare starts workerd as a child). */
export function workerdPids() {
  const rows = execFileSync('ps', ['-eo', 'pid=,ppid=,comm='], { encoding: 'utf8' })
    .trim().split('\n').map((line) => line.trim().split(/\s+/));
  const mine = new Set([String(process.pid)]);
  for (let grew = true; grew;) {
    grew = false;
    for (const [pid, ppid] of rows) if (mine.has(ppid) && !mine.has(pid)) { mine.add(pid); grew = true; }
  }
  return rows.filter(([pid, , comm]) => mine.has(pid) && /workerd/.test(comm)).map(([pid]) => pid);
}
