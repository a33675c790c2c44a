// Panel 2c, a replay bundle loaded from a file, in headless Chromium: bundles recorded in Node
// through the package's handleRequest with `x-edgeattest-replay: bundle` (NVIDIA's LS10 switch,
// its RIM held) are replayed in the page's wasm core. A passed attestation that replays is
// green; the same bundle with its time altered is red, as an alert, with the difference named;
// a failed attestation that replays faithfully stays red. The page decides nothing: what it
// shows is replayAttestation's answer in Node.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openPage } from './support/browser.mjs';
import { ready, DESKTOP, pageHooks, tableRows, failedRows, panelShots } from './support/page.mjs';
import { AttestationService, buildAttestRequest, handleRequest, replayAttestation } from '../../pkg/service/index.js';
import { fixtureText, ls10 } from './support/fixtures.mjs';
import { pkiText } from './support/ocsp-responder.mjs';

let worker;
let browser;
pageHooks((rig) => ({ worker, browser } = rig));

const ID = 'NV_SWITCH_BIOS_5612_0002_890_9610550001';
const JUNE_2026 = 1_780_272_000; // the LS10 RIM's signer is valid

/** An LS10 bundle: `ocspUrl` off, the switch passes (revocation not checked, warned). */
async function ls10Bundle(ocspUrl) {
  const service = new AttestationService({ signingKey: pkiText('leaf_good_key.pem'), issuer: 'https://attest.example', ocspUrl });
  try {
    service.addRim(`${ID}.xml`, fixtureText(`rims/nvat/switchVBIOSRim_${ID}.xml`));
    const nonce = Buffer.from(ls10.evidence.slice(4, 36)).toString('hex');
    const body = buildAttestRequest({ endpoint: '/v4/attest/switch', arch: 'LS10', nonce, evidence: [ls10], claimsVersion: '3.0' });
    const response = await handleRequest(service, {
      method: 'POST', path: '/v4/attest/switch',
      headers: { 'content-type': 'application/json', 'x-edgeattest-replay': 'bundle' }, body: JSON.stringify(body),
    }, { backend: 'software', fetch: false, now: JUNE_2026 });
    return Buffer.from(response.body).toString('utf8');
  } finally {
    service.free();
  }
}

async function load(page, text) {
  await page.setInputFiles('#replay-file', { name: 'bundle.json', mimeType: 'application/json', buffer: Buffer.from(text) });
  await page.waitForSelector('#replay-output:not([hidden]), #replay-error:not([hidden])');
  assert.equal(await page.isHidden('#replay-error'), true, await page.textContent('#replay-error'));
}

test('panel 2c: a passed attestation that replays is green; altered, red with the input named; a failed one stays red', async () => {
  const { page, problems } = await openPage(browser.context, `${worker.origin}/ui/`);
  await page.setViewportSize(DESKTOP);
  await ready(page);

  const passed = await ls10Bundle('off');
  const node = replayAttestation(passed);
  assert.equal(node.matches, true, JSON.stringify(node.differences));
  await load(page, passed);
  const verdict = page.locator('#replay-verdict');
  assert.equal(await verdict.getAttribute('class'), 'summary good');
  assert.equal(await verdict.getAttribute('data-matches'), 'true');
  assert.match(await verdict.textContent(), /^replay matches.*Recorded: attestation passed Replayed: attestation passed/);
  assert.deepEqual(await tableRows(page, '#replay-tokens'), [['overall', 'pass', 'pass'], ['SWITCH-0', 'pass', 'pass']]);
  await panelShots(page, '#replay', 'replay-matches');

  // One byte of the time changed: named, red, an alert.
  const altered = JSON.parse(passed);
  altered.time.value += 1;
  await load(page, JSON.stringify(altered));
  assert.equal(await verdict.getAttribute('class'), 'summary bad');
  assert.equal(await verdict.getAttribute('role'), 'alert');
  assert.match(await verdict.textContent(), /^replay differs 1 difference/);
  assert.deepEqual(await tableRows(page, '#replay-differences'), [['inputDigest', 'input time does not match its recorded digest']]);
  assert.deepEqual(await failedRows(page, '#replay-differences'), ['inputDigest']);

  // A failed attestation (OCSP configured, nothing fetched: 5001) replays faithfully, and is red.
  const failed = await ls10Bundle(undefined);
  const again = replayAttestation(failed);
  assert.equal(again.matches, true, JSON.stringify(again.differences));
  assert.equal(again.recorded.tokens[0].claims['x-nvidia-overall-att-result'], false);
  await load(page, failed);
  assert.equal(await verdict.getAttribute('class'), 'summary bad');
  assert.equal(await verdict.getAttribute('data-passed'), 'false');
  assert.match(await verdict.textContent(), /Recorded: attestation failed Replayed: attestation failed/);
  await panelShots(page, '#replay', 'replay-failed');

  // Not a bundle: the core's coded error, in the panel's alert.
  await page.setInputFiles('#replay-file', { name: 'x.json', mimeType: 'application/json', buffer: Buffer.from('{"format": 1}') });
  await page.waitForSelector('#replay-error:not([hidden])');
  assert.match(await page.textContent('#replay-error'), /ERR_REPLAY_BUNDLE_SHAPE/);
  assert.deepEqual(problems, []);
});
