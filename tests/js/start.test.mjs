// The main job (pkg-config/start.sh) started twice at once, and build.sh under its lock.
//
// Contention is made certain, not left to timing: the test holds target/start.lock (or
// target/build.lock) itself while the runs start, so each must say that it waits; when the
// test lets go, they proceed one after the other. Whether a run built is read from build.sh's
// log line and its stamp (target/build-stamp), never from how long it took.
// The sources are off (no internet); the development key in .edgeattest/ is the main job's.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';

const repo = fileURLToPath(new URL('../..', import.meta.url));
/** A cold build is minutes on a busy machine; a start with nothing to build is seconds. */
const READY_TIMEOUT_MS = 20 * 60_000;
const BUILD_LINE = /^build: (up to date|building) \(inputs ([0-9a-f]{16} docs:\S+)\)/m;

async function freePort() {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Runs a command in its own process group, collecting stdout and stderr together. */
function run(command, args, env = {}) {
  const child = spawn(command, args, { cwd: repo, env: { ...process.env, ...env }, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  const proc = { child, output: '', exited: once(child, 'exit') };
  const waiters = [];
  const collect = (chunk) => {
    proc.output += chunk;
    for (const waiter of [...waiters]) waiter();
  };
  child.stdout.setEncoding('utf8').on('data', collect);
  child.stderr.setEncoding('utf8').on('data', collect);
  /** Resolves with the match once the output matches `pattern`; rejects when the command ends first. */
  proc.waitFor = (pattern, timeoutMs = READY_TIMEOUT_MS) =>
    new Promise((resolve, reject) => {
      const timer = setTimeout(() => done(new Error(`timed out waiting for ${pattern}:\n${proc.output}`)), timeoutMs);
      const check = () => {
        const match = pattern.exec(proc.output);
        if (match) done(null, match);
      };
      const done = (error, match) => {
        clearTimeout(timer);
        waiters.splice(waiters.indexOf(check), 1);
        if (error) reject(error);
        else resolve(match);
      };
      waiters.push(check);
      proc.exited.then(([code, signal]) => done(new Error(`${command} ${args.join(' ')} ended (${code ?? signal}) before ${pattern}:\n${proc.output}`)));
      check();
    });
  proc.stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    try {
      process.kill(-child.pid, 'SIGTERM');
    } catch {
      return;
    }
    const timer = setTimeout(() => {
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }, 10_000);
    await proc.exited;
    clearTimeout(timer);
  };
  return proc;
}

/** Holds FILE's flock (as the scripts take it) until `release()`. */
async function holdLock(file) {
  const holder = run('flock', ['-x', file, 'bash', '-c', 'echo locked; exec sleep 600']);
  await holder.waitFor(/^locked$/m, 60_000);
  return holder;
}

test('two start.sh at once: the second waits for the first, neither rebuilds what is built, both serve /health UP', { timeout: 2 * READY_TIMEOUT_MS }, async (t) => {
  const ports = [await freePort(), await freePort()];
  const lock = await holdLock('target/start.lock');
  const env = { EDGEATTEST_RIM_SERVICE_URL: 'off', EDGEATTEST_OCSP_URL: 'off' };
  const starts = ports.map((port) => run('bash', ['pkg-config/start.sh'], { ...env, EDGEATTEST_PORT: String(port) }));
  t.after(async () => {
    await lock.stop();
    await Promise.all(starts.map((start) => start.stop()));
  });
  for (const start of starts) await start.waitFor(/^start: another start\.sh is setting up \(target\/start\.lock\); waiting/m, 60_000);
  // Nothing ran while the lock was held: no setup, no build.
  for (const start of starts) assert.doesNotMatch(start.output, /^build: /m);
  await lock.stop();

  const origins = [];
  for (const start of starts) origins.push((await start.waitFor(/^edgeattest service: (http:\/\/127\.0\.0\.1:\d+)\//m))[1]);
  // The banner says what /health says: both sources off here, so air-gapped, and why.
  for (const start of starts) {
    await start.waitFor(/^sources: /m, 60_000);
    assert.match(start.output, /^edgeattest service: \S+ {2}\(health: UP; network: AIR_GAPPED\)$/m);
    assert.match(start.output, /^sources: {12}The RIM service is off \(EDGEATTEST_RIM_SERVICE_URL=off\)/m);
  }
  assert.deepEqual(origins.map((origin) => Number(new URL(origin).port)).sort(), [...ports].sort());
  for (const origin of origins) {
    const health = await fetch(`${origin}/health`);
    assert.equal(health.status, 200);
    assert.equal((await health.json()).overallStatus, 'UP');
    const page = await fetch(`${origin}/ui/`);
    assert.equal(page.status, 200);
    assert.match(await page.text(), /<title>edgeattest/);
  }

  const lines = starts.map((start) => BUILD_LINE.exec(start.output));
  for (const [i, line] of lines.entries()) assert.ok(line, `start ${i} logged its build decision:\n${starts[i].output}`);
  const kinds = lines.map((line) => line[1]);
  // At most the first to take the lock builds; the second finds that build current.
  assert.ok(kinds.filter((kind) => kind === 'building').length <= 1, kinds.join(', '));
  assert.ok(kinds.includes('up to date'), kinds.join(', '));
  const stamp = readFileSync(`${repo}target/build-stamp`, 'utf8').trim();
  for (const line of lines) assert.equal(line[2], stamp, 'both runs saw the inputs of the build in place');
  for (const [i, start] of starts.entries()) {
    const built = kinds[i] === 'building' ? 'built' : 'did not build';
    t.diagnostic(`start on port ${new URL(origins[i]).port}: ${line(start.output, BUILD_LINE)} (${built})`);
  }
});

test('a build waits for the build lock and says so, then finds nothing to build', { timeout: READY_TIMEOUT_MS }, async (t) => {
  // Make sure the build is current first (a no-op after the release build).
  const first = run('bash', ['pkg-config/build.sh']);
  t.after(() => first.stop());
  assert.deepEqual(await first.exited, [0, null], first.output);

  const lock = await holdLock('target/build.lock');
  const second = run('bash', ['pkg-config/build.sh']);
  t.after(async () => {
    await lock.stop();
    await second.stop();
  });
  await second.waitFor(/^build: another build holds target\/build\.lock; waiting for it to finish$/m, 60_000);
  assert.doesNotMatch(second.output, BUILD_LINE);
  await lock.stop();
  assert.deepEqual(await second.exited, [0, null], second.output);
  assert.equal(BUILD_LINE.exec(second.output)?.[1], 'up to date', second.output);
  assert.equal(BUILD_LINE.exec(second.output)[2], readFileSync(`${repo}target/build-stamp`, 'utf8').trim());
});

function line(text, pattern) {
  return pattern.exec(text)?.[0] ?? '(none)';
}
