// The evidence panel's RIM upload: a RIM file goes to the driver or the firmware list by what
// the core reads in the document itself (identifyRim, its Meta), never by a guess of the
// page's — the real driver RIMs (whose text never says "driver") land in the driver list, the
// firmware RIMs in the firmware list, and a document of neither kind is refused with the
// core's error and filed nowhere. The same rule is checked on the package in Node.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { openPage } from './support/browser.mjs';
import { ready, DESKTOP, pageHooks } from './support/page.mjs';
import { identifyRim } from '../../pkg/local/index.js';

const fixture = (path) => readFileSync(new URL(`../fixtures/${path}`, import.meta.url), 'utf8');

// (fixture, the list it belongs in, its version): real NVIDIA RIMs and a generated Blackwell one.
const RIMS = [
  ['nvidia/rims/nvat/NV_GPU_DRIVER_GH100_550.144.03.xml', 'driver', '550.144.03'],
  ['nvidia/rims/nvtrust/Driver_RIM_test_no_gpu.swidtag', 'driver', '545.00'],
  ['generated/blackwell/NV_GPU_CC_DRIVER_GB100_575.32.xml', 'driver', '575.32'],
  ['nvidia/rims/nvtrust/1010_0200_882_96005E0001_PROD.swidtag', 'firmware', '96.00.5E.00.01'],
  ['nvidia/rims/nvat/switchVBIOSRim_NV_SWITCH_BIOS_5612_0002_890_9610550001.xml', 'firmware', '96.10.55.00.01'],
];
const DRIVER = RIMS[0][0];
/** The real driver RIM with its version made neither a driver's nor a firmware's. */
const NEITHER = fixture(DRIVER).replace('colloquialVersion="550.144.03"', 'colloquialVersion="1.2"');

let worker;
let browser;
pageHooks((rig) => ({ worker, browser } = rig));

test('identifyRim (the package): each fixture RIM is the kind its id names, and neither is refused', () => {
  for (const [path, kind, version] of RIMS) {
    const identity = identifyRim(fixture(path));
    assert.equal(identity.kind, kind, path);
    assert.equal(identity.version, version, path);
  }
  assert.deepEqual(identifyRim(new TextEncoder().encode(fixture(DRIVER))),
    { kind: 'driver', arch: 'HOPPER', product: 'GH100', version: '550.144.03', name: 'GH100' });
  for (const [xml, code, field] of [
    [NEITHER, 'ERR_RIM_SCHEMA', 'Meta@colloquialVersion'],
    [fixture(DRIVER).replace('edition="GPU"', 'edition="CPU"'), 'ERR_RIM_SCHEMA', 'Meta@edition'],
    ['<html><body>NV_GPU_DRIVER driver</body></html>', 'ERR_RIM_SCHEMA', 'SoftwareIdentity'],
    ['<SoftwareIdentity', 'ERR_RIM_MALFORMED_XML', undefined],
    [42, 'ERR_INVALID_ARGUMENT', 'xml'],
  ]) {
    assert.throws(() => identifyRim(xml), (error) => {
      assert.equal(error.name, 'EdgeAttestError');
      assert.equal(error.code, code, error.message);
      assert.equal(error.field, field, error.message);
      return true;
    });
  }
});

/** Uploads `files` ({name, text}) to the evidence panel; returns what each list and the error box show. */
async function upload(files) {
  const { page, problems } = await openPage(browser.context, `${worker.origin}/ui/`);
  await page.setViewportSize(DESKTOP);
  await ready(page);
  const options = (select) => page.$$eval(`${select} option`, (list) => list.map((o) => ({ value: o.value, text: o.textContent })));
  const before = { driver: await options('#ev-rim-driver'), firmware: await options('#ev-rim-firmware') };
  const shown = [];
  for (const { name, text } of files) {
    await page.setInputFiles('#ev-files', { name, mimeType: 'application/xml', buffer: Buffer.from(text) });
    await page.waitForFunction((file) => [...document.querySelectorAll('#ev-rim-driver option, #ev-rim-firmware option')]
      .some((o) => o.value.startsWith(`file:${file}:`)) || !document.getElementById('evidence-error').hidden, name);
    shown.push({
      name,
      driver: await page.inputValue('#ev-rim-driver'),
      firmware: await page.inputValue('#ev-rim-firmware'),
      error: await page.isHidden('#evidence-error') ? null : await page.textContent('#evidence-error'),
    });
    await page.evaluate(() => { document.getElementById('evidence-error').hidden = true; });
  }
  const after = { driver: await options('#ev-rim-driver'), firmware: await options('#ev-rim-firmware') };
  await page.close();
  return { before, after, shown, problems };
}

test('page: an uploaded RIM lands in the list its document names; one of neither kind is refused', async () => {
  const files = RIMS.map(([path]) => ({ name: path.split('/').pop(), text: fixture(path) }));
  files.push({ name: 'neither.xml', text: NEITHER });
  const { before, after, shown, problems } = await upload(files);

  for (const [i, [path, kind, version]] of RIMS.entries()) {
    const { name, driver, firmware, error } = shown[i];
    assert.equal(error, null, `${path}: ${error}`);
    // The uploaded file is selected in its own list, and named with what the core read.
    const selected = kind === 'driver' ? driver : firmware;
    assert.match(selected, new RegExp(`^file:${name.replace(/[.]/g, '\\.')}:`), path);
    const list = after[kind].find((o) => o.value === selected);
    assert.equal(list.text, `your file ${name} (${kind} ${version})`);
    const other = kind === 'driver' ? after.firmware : after.driver;
    assert.ok(!other.some((o) => o.value.startsWith(`file:${name}:`)), `${path} also filed as the other kind`);
  }

  // Neither a driver nor a firmware RIM: the core's error is shown, and no list changed.
  const neither = shown.at(-1);
  assert.match(neither.error, /^ERR_RIM_SCHEMA neither\.xml: RIM Meta@colloquialVersion: neither a driver version/);
  assert.match(neither.error, /\(field: Meta@colloquialVersion\)/);
  assert.ok(![...after.driver, ...after.firmware].some((o) => o.value.startsWith('file:neither.xml:')));
  const uploaded = (list) => list.filter((o) => o.value.startsWith('file:')).length;
  assert.equal(uploaded(after.driver), 3);
  assert.equal(uploaded(after.firmware), 2);
  assert.equal(after.driver.length, before.driver.length + 3);
  assert.equal(after.firmware.length, before.firmware.length + 2);
  assert.deepEqual(problems, []);
});
