// The service component fetches as the worker does (tests/js/fetch-resilience.test.mjs): the
// same core decides each attempt (`FetchAttempts`), and its `wasi:http` host only fetches,
// waits and answers. On loopback stand-ins in front of the test PKI's responder and RIM
// service: the first source down, answering garbage or 5xx, the mirror fine; every source
// down; the breaker. Each case asserts the claims, /health and the fetches of each source.
import { test, before, after } from 'node:test';
import { startServiceComponent } from './support/component-service.mjs';
import { sharedCases, startFaultMatrix } from './support/fault-matrix.mjs';

let matrix;

before(async () => {
  matrix = await startFaultMatrix();
});
after(() => matrix?.close());

for (const [name, run] of sharedCases(() => matrix, () => startServiceComponent(matrix.bindings))) test(`component: ${name}`, run);
