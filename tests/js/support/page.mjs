// Helpers for the verification page's browser tests (tests/js/page*.test.mjs).
import { before, after } from 'node:test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ARTIFACTS, launchBrowser } from './browser.mjs';
import { startWorker } from './worker.mjs';
import { fixtureText } from './fixtures.mjs';

export const DESKTOP = { width: 1280, height: 900 };
export const PHONE = { width: 390, height: 844 };

/**
 * The hooks of a page test file: one worker (with its development chain, as the local
 * service) and one browser for all its tests, handed to `use` once started, and stopped after
 * the last test.
 */
export function pageHooks(use) {
  const rig = {};
  before(async () => {
    rig.worker = await startWorker({ chain: true });
    rig.browser = await launchBrowser();
    use(rig);
  });
  after(async () => {
    await rig.browser?.close();
    await rig.worker?.stop();
  });
}

/** Unix seconds as a datetime-local value (the page reads it as UTC). */
export const timeValue = (seconds) => new Date(seconds * 1000).toISOString().slice(0, 19);

/** The page, ready: every panel started without an error. */
export async function ready(page) {
  await page.waitForSelector('#status.ready, #status.failed', { timeout: 20000 });
  const status = await page.textContent('#status');
  if (!/^Verifier ready: everything/.test(status)) throw new Error(`the page did not start: ${status}`);
}

/** Screenshots of one element (a panel) at the desktop and the phone width. */
export async function panelShots(page, selector, name) {
  for (const [suffix, size] of [['desktop', DESKTOP], ['phone', PHONE]]) {
    await page.setViewportSize(size);
    await page.locator(selector).screenshot({ path: join(ARTIFACTS, `page-${name}-${suffix}.png`) });
  }
  await page.setViewportSize(DESKTOP);
}

/** The rows of a table as arrays of cell texts (header row excluded). */
export async function tableRows(page, selector) {
  return page.$$eval(`${selector} tbody tr`, (rows) =>
    rows.map((row) => [...row.children].map((cell) => cell.textContent.trim())));
}

/** The rows of a table that carry the class `failed`, by their first cell. */
export async function failedRows(page, selector) {
  return page.$$eval(`${selector} tbody tr.failed`, (rows) => rows.map((row) => row.children[0].textContent.trim()));
}

/** base64url JSON of a JWS part. */
export const decodePart = (part) => JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
export const encodePart = (value) => Buffer.from(JSON.stringify(value)).toString('base64url');

/** A recorded NRAS exchange (tests/fixtures/nvidia/nras/teep/<name>_*): its texts, nonce, iat and kid. */
export function nrasCapture(name) {
  const responseText = fixtureText(`nras/teep/${name}_response.json`);
  const response = JSON.parse(responseText);
  return {
    responseText,
    response,
    jwksText: fixtureText(`nras/teep/${name}_jwks.json`),
    nonce: JSON.parse(fixtureText(`nras/teep/${name}_request.json`)).nonce,
    iat: decodePart(response[0][1].split('.')[1]).iat,
    kid: decodePart(response[0][1].split('.')[0]).kid,
  };
}

/** Waits until the list panel's last query has been answered (it asks the worker). */
export const listSettled = (page) => page.waitForFunction(() => !document.getElementById('alerts').dataset.busy);

const GENERATED = new URL('../../fixtures/generated/', import.meta.url);

/**
 * The test token-signing PKI (tests/fixtures/generated/token_signing_*.pem): its key's PKCS#8
 * PEM, its chain as a JWKS key's x5c (leaf, CA) and the CA to pin, so that results minted
 * here verify under a pinned signer as a real service's do.
 */
export function testSigner() {
  const blocks = readFileSync(new URL('token_signing_chain.pem', GENERATED), 'utf8')
    .match(/-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----\n?/g);
  return {
    keyPem: readFileSync(new URL('token_signing_key.pem', GENERATED), 'utf8'),
    x5c: blocks.map((b) => b.replace(/-----[A-Z ]+-----|\s/g, '')),
    anchorPem: blocks.at(-1),
  };
}

/** Pins the page's trusted signers to the anchor `pem` (panel 1's anchors control). */
export async function pinAnchor(page, pem) {
  await page.fill('#signers-text', pem);
  await page.check('#signers-anchors');
}

/**
 * The user's choice "Trust this service's root" for the service at the JWKS URL field (by
 * default the page's own origin, the worker with its development chain).
 */
export async function trustServiceRoot(page) {
  await page.click('#trust-service-root');
  await page.waitForFunction(() => document.getElementById('service-root-note').textContent.length > 0
    || !document.getElementById('result-error').hidden);
}
