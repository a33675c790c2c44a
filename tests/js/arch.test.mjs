// The architecture table reaches JS once: architectures() gives its rows, the TS `Arch`
// union is made from it and declared once, and the page has no architecture list or name
// test of its own (issue 18).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { architectures, rimIds, buildAttestRequest } from '../../pkg/local/index.js';

const REPO = fileURLToPath(new URL('../..', import.meta.url));
const read = (path) => readFileSync(join(REPO, path), 'utf8');

test('architectures(): one plain row per architecture, in the table order', () => {
  const rows = architectures();
  assert.deepEqual(rows.map((row) => row.name), ['HOPPER', 'BLACKWELL', 'LS10']);
  const [hopper, blackwell, ls10] = rows;
  assert.equal(Object.getPrototypeOf(hopper), Object.prototype); // plain objects, not Maps
  assert.deepEqual(hopper, {
    name: 'HOPPER',
    deviceKind: 'gpu',
    chips: [{ word: 'GH100', rimChip: 'GH100', chipInfos: [], fwidSource: 'dice' }],
    driverRim: { prefix: 'NV_GPU_DRIVER_', chipInfo: false },
    firmwareRim: { scheme: 'vbios', fsp: false },
    evidenceProfiles: ['hopper-gsp'],
    endpoints: ['/v4/attest/gpu', '/v3/attest/gpu', '/v2/attest/gpu', '/v1/attest/gpu'],
  });
  // One family, one wire value: every chip its certificates name, each with its own rules.
  assert.deepEqual(blackwell.chips, [
    { word: 'GB100', rimChip: 'GB100', chipInfos: [], fwidSource: 'tcb-info' },
    { word: 'GB20X', rimChip: null, chipInfos: ['GB202'], fwidSource: 'tcb-info' },
    { word: 'GB110', rimChip: 'GB110', chipInfos: [], fwidSource: 'tcb-info' },
  ]);
  assert.deepEqual(blackwell.evidenceProfiles, ['blackwell-gsp', 'blackwell-fsp']);
  assert.deepEqual(blackwell.firmwareRim, { scheme: 'vbios', fsp: true });
  assert.equal(ls10.deviceKind, 'switch');
  assert.equal(ls10.driverRim, null);
  assert.deepEqual(ls10.endpoints, ['/v4/attest/switch', '/v3/attest/switch']);
  // A fresh array each call: a caller editing it cannot change the next answer.
  rows.pop();
  assert.equal(architectures().length, 3);
});

test('every row is taken where its endpoints say, and refused elsewhere', () => {
  const all = ['/v4/attest/gpu', '/v3/attest/gpu', '/v2/attest/gpu', '/v1/attest/gpu', '/v4/attest/switch', '/v3/attest/switch'];
  const evidence = [{ evidence: '11e0', certificate: '-----BEGIN CERTIFICATE-----\nAA==\n-----END CERTIFICATE-----\n' }];
  for (const row of architectures()) {
    for (const endpoint of all) {
      let code = null;
      try {
        buildAttestRequest({ endpoint, arch: row.name, nonce: '00'.repeat(32), evidence });
      } catch (error) {
        code = error.code;
      }
      if (row.endpoints.includes(endpoint)) assert.notEqual(code, 'ERR_REQUEST_INVALID_ARCH', `${row.name} ${endpoint}`);
      else assert.equal(code, 'ERR_REQUEST_INVALID_ARCH', `${row.name} ${endpoint}`);
      assert.equal(row.endpoints.includes(endpoint), endpoint.endsWith(`/${row.deviceKind}`));
    }
  }
});

test('rimIds: a driver id exactly for the rows with a driver RIM', () => {
  const values = { driverVersion: '580.159.03', vbiosVersion: '96.10.55.00.01', project: '1010', projectSku: '0205', chipSku: '862' };
  for (const row of architectures()) {
    const ids = rimIds(row.name, values);
    if (row.driverRim) assert.ok(ids.driver.startsWith(row.driverRim.prefix), row.name);
    else assert.equal(ids.driver, null, row.name);
    if (row.firmwareRim.scheme === 'switchBios') assert.ok(ids.firmware.startsWith(row.firmwareRim.prefix));
  }
  assert.throws(() => rimIds('RUBIN', values), (e) => e.code === 'ERR_INVALID_ARGUMENT' && /HOPPER, BLACKWELL or LS10/.test(e.message));
});

test('rimIds: a Blackwell driver RIM is named by CHIP_INFO, else by the certificate chip\'s row', () => {
  const values = { driverVersion: '595.58.03', vbiosVersion: '98.02.81.00.01', project: 'G153', projectSku: '0210', chipSku: '895' };
  assert.equal(rimIds('BLACKWELL', { ...values, hwmodel: 'GB20X', chipInfo: 'GB202' }).driver, 'NV_GPU_CC_DRIVER_GB202_595.58.03');
  assert.equal(rimIds('BLACKWELL', { ...values, hwmodel: 'GB110' }).driver, 'NV_GPU_CC_DRIVER_GB110_595.58.03');
  // No certificate chip: the row's first, as NVIDIA's C++ SDK names it.
  assert.equal(rimIds('BLACKWELL', values).driver, 'NV_GPU_CC_DRIVER_GB100_595.58.03');
  // GB20X names several dies: without CHIP_INFO there is no id to guess.
  assert.throws(() => rimIds('BLACKWELL', { ...values, hwmodel: 'GB20X' }), (e) => e.code === 'ERR_RIM_ID_MISSING_INPUT' && e.field === 'chip_info');
  assert.throws(() => rimIds('BLACKWELL', { ...values, hwmodel: 'GB20Y' }), (e) => e.code === 'ERR_RIM_ID_INVALID_INPUT' && e.field === 'hwmodel');
  assert.equal(rimIds('BLACKWELL', { ...values, hwmodel: 'GB20X', chipInfo: 'GB202' }).firmware, 'NV_GPU_VBIOS_G153_0210_895_9802810001');
});

test('the TS Arch union is made from the table and declared once', () => {
  const dts = read('pkg/local/edgeattest.d.ts');
  const unions = dts.match(/export type Arch =[^;]*;/g) ?? [];
  assert.deepEqual(unions, ['export type Arch = | "HOPPER" | "BLACKWELL" | "LS10";']);
  assert.match(dts, /export interface Architecture \{/);
  assert.match(dts, /export function architectures\(\): Architecture\[\];/);
});

test('the page lists no architecture and tests no name of its own', () => {
  const html = read('www/index.html');
  assert.doesNotMatch(html, /value="(HOPPER|BLACKWELL|LS10)"/);
  assert.equal(html.match(/<select [^>]*data-arch[^>]*><\/select>/g)?.length, 2);
  // evidence.js is left to the core report (issue 18, the report's part).
  const panels = readdirSync(join(REPO, 'www/panels')).filter((name) => name !== 'evidence.js');
  for (const name of panels) {
    const text = read(`www/panels/${name}`);
    assert.doesNotMatch(text, /'(HOPPER|BLACKWELL|LS10)'/, name);
  }
});
