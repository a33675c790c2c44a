// The six verdict states of the page's one scale, each driven through panel 1 as a person
// would: NVIDIA's recorded results (tests/fixtures/nvidia/nras/teep/, read here, never
// shipped) at their recorded time, now, with a typo'd nonce and with one signature character
// changed; and the page's own recorded TEST PKI results, verified with the panel's "Verify at
// its recorded time" button. Used by the page test (tests/js/page-levels.test.mjs) and the
// screenshot script (tests/page/screens.mjs).
import { readFileSync } from 'node:fs';

const teep = new URL('../fixtures/nvidia/nras/teep/', import.meta.url);

/** A recorded NRAS exchange: result and JWKS as text, the request's nonce, the result's iat. */
export function recording(name) {
  const text = (kind) => readFileSync(new URL(`${name}_${kind}.json`, teep), 'utf8');
  const result = text('response');
  const overall = JSON.parse(Buffer.from(JSON.parse(result)[0][1].split('.')[1], 'base64url'));
  return { result, jwks: text('jwks'), nonce: JSON.parse(text('request')).nonce, iat: overall.iat };
}

/** The result with the overall token's last signature character changed. */
export function forged(result) {
  const value = JSON.parse(result);
  const token = value[0][1];
  value[0][1] = `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`;
  return JSON.stringify(value);
}

/** A datetime-local value (read as UTC by the page). */
const timeValue = (seconds) => new Date(seconds * 1000).toISOString().slice(0, 19);

async function fill(page, { result, jwks, nonce, at }) {
  await page.fill('#result-text', result);
  await page.fill('#jwks-text', jwks);
  await page.fill('#result-nonce', nonce);
  if (at === undefined) await page.click('#result-now');
  else await page.fill('#result-time', timeValue(at));
  await page.click('#verify-result');
}

async function recorded(page, id) {
  await page.selectOption('#recorded-result', id);
  await page.click('#recorded-verify');
}

/** Waits for panel 1's verdict to be shown. */
export async function verdictShown(page) {
  await page.waitForSelector('#result-summary:not([hidden]) #result-verdict');
}

/** [level, file name, what it shows, drive(page)]: one per level of the scale, worst first. */
export const STATES = [
  ['forged', 'forged', 'NVIDIA\'s recorded pass with one signature character changed', async (page) => {
    const c = recording('v3_1gpu_success_20260629');
    await fill(page, { ...c, result: forged(c.result), at: c.iat });
  }],
  ['wrong-nonce', 'wrong-nonce', 'NVIDIA\'s recorded pass checked against a typo\'d nonce at its recorded time', async (page) => {
    const c = recording('v3_1gpu_success_20260629');
    await fill(page, { ...c, nonce: `${c.nonce.slice(0, -1)}${c.nonce.endsWith('0') ? '1' : '0'}`, at: c.iat });
  }],
  ['expired', 'expired', 'NVIDIA\'s recorded pass checked now', async (page) => {
    const c = recording('v3_1gpu_success_20260629');
    await fill(page, { ...c, at: undefined });
  }],
  ['failed', 'failed', 'the page\'s recorded TEST PKI result with a driver measurement altered, at its recorded time', async (page) => {
    await recorded(page, 'recorded-testpki-hopper-tampered');
  }],
  ['passed-with-warnings', 'passed-with-warnings', 'the page\'s recorded TEST PKI pass, at its recorded time', async (page) => {
    await recorded(page, 'recorded-testpki-hopper-550.90.07');
  }],
  ['passed', 'passed', 'NVIDIA\'s recorded 8-GPU pass at its recorded time', async (page) => {
    const c = recording('v3_8gpu_success_20260629');
    await fill(page, { ...c, at: c.iat });
  }],
];
