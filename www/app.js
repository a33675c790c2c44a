// The verification page. Every check runs in this browser through the edgeattest wasm module
// (imported by the panels from ./pkg/service/: the page runs the service's own code too); this file loads the bundled samples and starts the
// panels. Everything is fetched at start, so the page keeps working offline once loaded.
import { showError } from './panels/ui.js';

function setStatus(text, state) {
  const status = document.getElementById('status');
  status.textContent = text;
  status.className = state ?? '';
}

async function loadJson(path) {
  const response = await fetch(path);
  if (!response.ok) throw new Error(`${path}: ${response.status} ${response.statusText}`);
  return response.json();
}

async function main() {
  // Loaded here rather than imported statically: a module that cannot load (no WebAssembly,
  // a blocked file) then gives a message instead of a page that says "Loading" forever.
  const [
    { initResultPanel }, { initEvidencePanel }, { initRequestPanel },
    { initScopesPanel }, { initListsPanel }, { initDeprecationsPanel }, { initHealthPanel },
    { fillArchSelects }, { initPolicySection }, { initTopologyPanel }, { initReplayPanel },
  ] = await Promise.all([
    import('./panels/result.js'), import('./panels/evidence.js'), import('./panels/request.js'),
    import('./panels/scopes.js'), import('./panels/lists.js'), import('./panels/deprecations.js'),
    import('./panels/health.js'), import('./panels/arch.js'), import('./panels/policy.js'),
    import('./panels/topology.js'), import('./panels/replay.js'),
  ]);
  fillArchSelects(); // before the panels, which set the selects from samples
  const failures = [];
  const start = (name, errorBox, init) => {
    try {
      init();
    } catch (error) {
      failures.push(name);
      showError(errorBox, { code: error.code ?? 'ERR_PANEL_START', message: `${name} could not start: ${error.message}` });
    }
  };
  let evidence = [];
  let rims = [];
  let policies = [];
  let results = [];
  let topology = null;
  try {
    [evidence, rims, policies, results, topology] = await Promise.all([
      loadJson('samples/evidence.json').then((j) => j.samples),
      loadJson('samples/rims.json').then((j) => j.rims),
      loadJson('samples/policies.json').then((j) => j.policies),
      loadJson('samples/results.json').then((j) => j.results.map((r) => ({ ...r, provenance: r.provenance ?? j.provenance }))),
      loadJson('samples/topology.json'),
    ]);
  } catch (error) {
    failures.push('samples');
    showError('evidence-error', { code: 'ERR_SAMPLES', message: `The bundled samples could not be loaded: ${error.message}` });
  }
  start('Panel 1', 'result-error', () => initResultPanel(results));
  start('Panel 1 policy', 'policy-error', () => initPolicySection(policies));
  start('Panel 2', 'evidence-error', () => initEvidencePanel(evidence, rims));
  start('Panel 2b', 'topology-error', () => initTopologyPanel(topology));
  start('Panel 2c', 'replay-error', initReplayPanel);
  start('Panel 3', 'build-error', () => initRequestPanel(evidence));
  start('Panel 4', 'scopes-error', initScopesPanel);
  start('Panel 5', 'alerts-error', initListsPanel);
  start('Panel 6', 'deprecations-error', () => initDeprecationsPanel(evidence));
  start('Panel 7', 'health-output', initHealthPanel);
  if (failures.length) setStatus(`Verifier ready, except: ${failures.join(', ')} (see the panel's message).`, 'failed');
  else setStatus('Verifier ready: everything runs locally in this browser.', 'ready');
}

// A copy of the page for offline use (see sw.js): the files already loaded are handed to the
// service worker, and the page says when the copy is complete.
async function keepOfflineCopy() {
  if (!('serviceWorker' in navigator)) return;
  try {
    await navigator.serviceWorker.register('sw.js', { scope: './' });
    const registration = await navigator.serviceWorker.ready;
    const urls = [location.href, ...performance.getEntriesByType('resource').map((entry) => entry.name)]
      .filter((url) => url.startsWith(registration.scope));
    const reply = await new Promise((resolve) => {
      const channel = new MessageChannel();
      channel.port1.onmessage = (event) => resolve(event.data);
      registration.active.postMessage({ type: 'cache', urls: [...new Set(urls)] }, [channel.port2]);
    });
    document.documentElement.dataset.offline = reply.error ? 'failed' : 'ready';
  } catch {
    document.documentElement.dataset.offline = 'failed'; // the page still works while open
  }
}

main()
  .then(keepOfflineCopy)
  .catch((error) => setStatus(`The verifier could not start: ${error.message}`, 'failed'));
