// A loopback RIM service serving the RIM documents the worker bundles (the choice of
// pkg-config/bundle-worker.mjs: NVIDIA's PROD VBIOS RIMs, the GH100 550.144.03 driver RIM,
// the LS10 switch BIOS RIM) as NVIDIA's envelopes `{id, rim, sha256}`, so that a host with
// EDGEATTEST_BUNDLED_RIMS=off fetches what the bundling host holds. `mode` makes it
// misbehave: 'slow' (never answers), 'huge' (a 200 whose body streams past the core's
// MAX_FETCHED_BYTES, no content-length), 'http503'.
import { createServer } from 'node:http';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const RIMS = fileURLToPath(new URL('../../fixtures/nvidia/rims/', import.meta.url));

/** RIM id → document, as the worker bundles them (ids from the file names). */
export function bundledRims() {
  const rims = new Map();
  for (const name of readdirSync(join(RIMS, 'nvtrust'))) {
    const prod = /^(.+)_PROD\.swidtag$/.exec(name);
    if (prod) rims.set(`NV_GPU_VBIOS_${prod[1].toUpperCase()}`, readFileSync(join(RIMS, 'nvtrust', name)));
  }
  rims.set('NV_GPU_DRIVER_GH100_550.144.03', readFileSync(join(RIMS, 'nvat', 'NV_GPU_DRIVER_GH100_550.144.03.xml')));
  rims.set('NV_SWITCH_BIOS_5612_0002_890_9610550001', readFileSync(join(RIMS, 'nvat', 'switchVBIOSRim_NV_SWITCH_BIOS_5612_0002_890_9610550001.xml')));
  return rims;
}

/** Starts the service on 127.0.0.1; resolves to { url, asked, setMode, close }. */
export async function startFixtureRimService() {
  const rims = bundledRims();
  const asked = [];
  const pending = new Set();
  let mode = 'normal';
  const server = createServer((request, response) => {
    const id = decodeURIComponent(request.url.replace(/^\/v1\/rim\//, ''));
    asked.push(id);
    if (mode === 'slow') {
      pending.add(response);
      return;
    }
    if (mode === 'http503') {
      response.writeHead(503).end();
      return;
    }
    if (mode === 'huge') {
      // Chunked: the cap must hold while the body streams, not from a declared length.
      response.writeHead(200, { 'content-type': 'application/json' });
      const chunk = Buffer.alloc(256 * 1024, 0x20);
      let sent = 0;
      const more = () => {
        while (sent < 12 && response.write(chunk)) sent += 1;
        if (sent >= 12) response.end();
        else response.once('drain', () => { sent += 1; more(); });
      };
      response.on('error', () => {});
      more();
      return;
    }
    const xml = rims.get(id);
    if (!xml) {
      response.writeHead(404, { 'content-type': 'application/json' }).end('{"message":"not found"}');
      return;
    }
    const envelope = { id, rim: xml.toString('base64'), sha256: createHash('sha256').update(xml).digest('hex') };
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(envelope));
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}/v1/rim/`,
    asked,
    setMode(next) {
      mode = next;
    },
    async close() {
      for (const response of pending) response.destroy();
      server.closeAllConnections?.();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
