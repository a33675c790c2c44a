// workerd's own output, as the local server shows it. workerd logs every failed DNS lookup of
// a fetch as an internal error with a native stack trace (two lines: the KJ exception, then
// `stack:` and addresses); offline, every probe and every attestation that asks NVIDIA's
// sources would print one. Such an expected network failure becomes one short line naming the
// host and the resolver's cause; every other line of workerd's passes as it came, stack
// traces included, so that an unexpected error is never hidden.
import { createInterface } from 'node:readline';

/**
 * workerd's log line of a failed DNS lookup (kj/async-io-unix.c++), with its host and cause. It
 * comes from more than one place of workerd (jsg/util.c++ when the fetch rejects, io-context.c++
 * when the request's context ends), often twice for one failure.
 */
const DNS_FAILURE = /^workerd\/[\w/.-]+\.c\+\+:\d+: error: e = kj\/async-io-unix\.c\+\+:\d+: failed: DNS lookup failed\.; params\.host = ([^;]*); params\.service = [^;]*; gai_strerror\(status\) = (.*)$/;
/** The native stack trace workerd prints after an error line (addresses, then its context). */
const NATIVE_STACK = /^stack:( \S+)*$/;
/** The same short line is said once in this many milliseconds (one failure is logged twice). */
const REPEAT_MS = 10_000;

/**
 * One line of workerd's output, or null for one to leave out: the native stack trace after an
 * expected network failure, and the same short line again within REPEAT_MS. `state` carries
 * what is needed from line to line; `now` is the time in milliseconds.
 */
export function filterLine(line, state, now = Date.now()) {
  if (state.skipStack) {
    state.skipStack = false;
    if (NATIVE_STACK.test(line)) return null;
  }
  const dns = DNS_FAILURE.exec(line);
  if (!dns) return line;
  state.skipStack = true;
  const short = `workerd: DNS lookup failed for ${dns[1]} (${dns[2]}): the host cannot resolve it (offline?); GET /health says what fails and what to do`;
  state.said ??= new Map();
  if (now - (state.said.get(short) ?? -Infinity) < REPEAT_MS) return null;
  state.said.set(short, now);
  return short;
}

/**
 * Miniflare's handleRuntimeStdio: workerd's stdout to `out`, its stderr to `err` (default the
 * console's), line by line, through filterLine.
 */
export function runtimeOutput({ out = console.log, err = console.error } = {}) {
  return (stdout, stderr) => {
    for (const [stream, write] of [[stdout, out], [stderr, err]]) {
      const state = { skipStack: false };
      createInterface(stream).on('line', (line) => {
        const shown = filterLine(line, state);
        if (shown !== null) write(shown);
      });
    }
  };
}
