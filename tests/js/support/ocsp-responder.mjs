// A loopback OCSP responder for the JS tests: `openssl ocsp` answers each POSTed request as
// the responder of the test PKI's CA that the request names (tests/fixtures/generated/ocsp/,
// responders.json: each CA's files and its issuerKeyHash), signed the way NVIDIA's responder
// signs (a delegated responder per CA, ResponderID by key hash, ecdsa-with-SHA384, its
// certificate embedded). The Rust tests use the same openssl answers offline
// (tests/common/ocsp_responder.rs). `mode` makes it misbehave: 'slow' (never answers),
// 'http500', 'garbage', 'replay' (the previous answer about the same certificate), 'rogue' (signed by a certificate without id-kp-OCSPSigning).
import { createServer } from 'node:http';
import { performance } from 'node:perf_hooks';
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const PKI = fileURLToPath(new URL('../../fixtures/generated/ocsp/', import.meta.url));
const manifest = JSON.parse(readFileSync(join(PKI, 'responders.json'), 'utf8'));

function openssl(args) {
  return new Promise((resolve, reject) => {
    execFile('openssl', args, (error, stdout, stderr) => (error ? reject(new Error(`openssl ${args[0]}: ${stderr}`)) : resolve(stdout)));
  });
}

/** Records when `response` was asked (now) and answered into `spans`: [start, end] in ms. */
function timeSpan(spans, response) {
  const start = performance.now();
  response.once('finish', () => spans.push([start, performance.now()]));
}

/**
 * Starts the responder on 127.0.0.1; resolves to { url, served, takeSpans, setMode, close }
 * (`takeSpans` hands over and forgets the [asked, answered] times of the requests answered so
 * far).
 */
export async function startOcspResponder() {
  const work = await mkdtemp(join(tmpdir(), 'edgeattest-ocsp-'));
  let mode = 'normal';
  let served = 0;
  const spans = [];
  let counter = 0;
  const previous = new Map();
  const pending = new Set();
  const server = createServer(async (request, response) => {
    timeSpan(spans, response);
    const chunks = [];
    for await (const chunk of request) chunks.push(chunk);
    const body = Buffer.concat(chunks);
    served += 1;
    if (mode === 'slow') {
      pending.add(response);
      return;
    }
    if (mode === 'http500') {
      response.writeHead(500).end();
      return;
    }
    if (mode === 'garbage') {
      response.writeHead(200, { 'content-type': 'application/ocsp-response' }).end(Buffer.from('not DER at all'));
      return;
    }
    const entry = Object.entries(manifest).find(([, e]) => body.includes(Buffer.from(e.issuer_key_hash.sha384, 'hex')));
    if (!entry) {
      response.writeHead(404).end();
      return;
    }
    const [ca, files] = entry;
    const n = counter++;
    const reqFile = join(work, `${n}.req`);
    const respFile = join(work, `${n}.resp`);
    const signer = mode === 'rogue' ? ['rogue_responder.pem', 'rogue_responder_key.pem'] : [files.responder, files.responder_key];
    try {
      await writeFile(reqFile, body);
      await openssl(['ocsp', '-index', join(PKI, files.index), '-CA', join(PKI, files.ca), '-rsigner', join(PKI, signer[0]),
        '-rkey', join(PKI, signer[1]), '-rmd', 'sha384', '-resp_key_id', '-ndays', '1', '-reqin', reqFile, '-respout', respFile]);
      let answer = await readFile(respFile);
      // The request without its nonce (the core writes the 32-byte nonce last): the same
      // certificate asked about again.
      const certId = body.subarray(0, body.length - 32).toString('hex');
      if (mode === 'replay' && previous.has(certId)) answer = previous.get(certId);
      previous.set(certId, answer);
      response.writeHead(200, { 'content-type': 'application/ocsp-response' }).end(answer);
    } catch (error) {
      response.writeHead(500).end(String(error.message));
    }
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}/`,
    served: () => served,
    takeSpans: () => spans.splice(0),
    setMode(next) {
      mode = next;
    },
    async close() {
      for (const response of pending) response.destroy();
      server.closeAllConnections?.();
      await new Promise((resolve) => server.close(resolve));
      await rm(work, { recursive: true, force: true });
    },
  };
}

/**
 * A RIM service stand-in serving the OCSP test RIMs (ocsp/rims/<id>.xml) as NVIDIA's envelopes;
 * resolves to { url, served, takeSpans, close } (`takeSpans` as the responder's).
 */
export async function startRimService() {
  let served = 0;
  const spans = [];
  const server = createServer(async (request, response) => {
    timeSpan(spans, response);
    served += 1;
    const id = decodeURIComponent(request.url.replace(/^\/v1\/rim\//, ''));
    if (!/^NV_[A-Z0-9_.]+$/.test(id)) {
      response.writeHead(404).end();
      return;
    }
    try {
      const xml = await readFile(join(PKI, 'rims', `${id}.xml`));
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ id, rim: xml.toString('base64') }));
    } catch {
      response.writeHead(404, { 'content-type': 'application/json' }).end('{"message":"not found"}');
    }
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}/v1/rim/`,
    served: () => served,
    takeSpans: () => spans.splice(0),
    close: () => new Promise((resolve) => { server.closeAllConnections?.(); server.close(resolve); }),
  };
}

/** The test PKI's text files. */
export const pkiText = (file) => readFileSync(join(PKI, file), 'utf8');

/**
 * A test device: the real Hopper 550.90.07 transcript re-signed with the test PKI's leaf of
 * `stem` (`good`, `revoked`, `unknown`, `hold`, `node_<n>`), and its chain; with `nonce`, the
 * transcript carries that nonce instead of the recorded one.
 */
export async function testDevice(stem, subtle = globalThis.crypto.subtle, nonce = undefined) {
  const report = Buffer.from(readFileSync(fileURLToPath(new URL('../../fixtures/nvidia/evidence/hopper/nvtrust_hopper_550.90.07_report.hex', import.meta.url)), 'utf8').trim(), 'hex');
  // As a GPU asked with `nonce` (64 hex digits): the request's nonce field, then re-signed.
  if (nonce !== undefined) Buffer.from(nonce, 'hex').copy(report, 4);
  const pem = pkiText(`leaf_${stem}_key.pem`);
  const der = Buffer.from(pem.replace(/-----[^-]+-----/g, '').replace(/\s+/g, ''), 'base64');
  const key = await subtle.importKey('pkcs8', der, { name: 'ECDSA', namedCurve: 'P-384' }, false, ['sign']);
  const signed = report.subarray(0, report.length - 96);
  const signature = new Uint8Array(await subtle.sign({ name: 'ECDSA', hash: 'SHA-384' }, key, signed));
  return { evidence: new Uint8Array(Buffer.concat([signed, signature])), certificate: pkiText(`chain_${stem}.pem`) };
}

const SIGNER_PKI = fileURLToPath(new URL('../../fixtures/generated/signer_ocsp/', import.meta.url));

/** A file of the token-signing PKI whose leaves name an OCSP responder (signer_ocsp/). */
export const signerPkiText = (file) => readFileSync(join(SIGNER_PKI, file), 'utf8');

/**
 * The signer PKI's root responder answering one DER request (`openssl ocsp`, offline): the
 * answers for the signer chain's OCSP tests.
 */
export async function signerOcspAnswer(request) {
  const work = await mkdtemp(join(tmpdir(), 'edgeattest-signer-ocsp-'));
  try {
    await writeFile(join(work, 'req'), request);
    await openssl(['ocsp', '-index', join(SIGNER_PKI, 'index_root.txt'), '-CA', join(SIGNER_PKI, 'root.pem'),
      '-rsigner', join(SIGNER_PKI, 'responder_root.pem'), '-rkey', join(SIGNER_PKI, 'responder_root_key.pem'), '-rmd', 'sha384',
      '-resp_key_id', '-ndays', '1', '-reqin', join(work, 'req'), '-respout', join(work, 'resp')]);
    return await readFile(join(work, 'resp'));
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}
