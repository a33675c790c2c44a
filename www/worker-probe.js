// The sources' probe: whether the RIM service and the OCSP responder answer, known from the
// start rather than from the first attestation that fails. The core names the sources
// (service.probeTargets()) and reads the outcome into /health (network, networkDetail); this
// module decides only when to ask. Cheap: one HEAD per configured source, at most
// probeTimeoutMs (3 s) each, all at once; again when a request comes and the last probe is
// older than probeIntervalSeconds (5 min). Never in the way: the request that starts a probe
// does not wait for it (ctx.waitUntil keeps it alive past the response).
import { serviceLimits } from '../pkg/service/workerd.js';
import { probeSources } from '../pkg/service/fetch.js';

const { probeIntervalSeconds } = serviceLimits();

/** When the last probe started (ms, the host's clock: EDGEATTEST_FIXED_TIME does not stop it). */
let lastStart = -Infinity;
/** The probe under way, if any. */
let running;
/** What the last probe saw of each source, to log a change once, not every interval. */
const said = new Map();

/**
 * Starts a probe of `service`'s sources when none ran for probeIntervalSeconds. `now`: the
 * service's clock (Unix seconds, for counting the cache's entries); `cache`: the worker's
 * fetch cache. A source that does not answer is logged in one line, when that changes.
 */
export function probeWhenDue(service, ctx, { now, cache }) {
  if (running || Date.now() - lastStart < probeIntervalSeconds * 1000) return;
  lastStart = Date.now();
  running = probeSources(service, { cache, now })
    .then((seen) => {
      for (const { kind, url } of service.probeTargets()) {
        const state = seen[kind];
        const name = `${kind === 'rim' ? 'the RIM service' : 'the OCSP responder'} ${url}`;
        const line = state?.reachable === false
          ? `${name} does not answer (${state.lastError}): GET /health says what fails and what to do`
          : `${name} answers`;
        if (said.get(kind) === line) continue;
        if (said.has(kind) || state?.reachable === false) console.warn(`edgeattest: source probe: ${line}`);
        said.set(kind, line);
      }
    })
    // Not a network failure (probeSources never rejects for one): a fault, said in full.
    .catch((error) => console.error('edgeattest: the source probe failed:', error))
    .finally(() => {
      running = undefined;
    });
  if (typeof ctx?.waitUntil === 'function') ctx.waitUntil(running);
}
