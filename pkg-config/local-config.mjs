// Reads the local configuration of the edge worker from environment variables (README:
// "Configuration of the main job") and turns it into the worker's bindings — the same
// names a Cloudflare deployment sets in pkg-config/wrangler.toml. Files are read here, by
// the host; the worker and the wasm core never touch a file system.
import { existsSync, mkdirSync, readFileSync, readdirSync, statSync, writeFileSync, chmodSync } from 'node:fs';
import { join } from 'node:path';
import { webcrypto } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { developmentCertificateChain } from './dev-certificate.mjs';

const repo = fileURLToPath(new URL('..', import.meta.url));
/** Where the development key, its certificate chain and the API keys are kept (git-ignored). */
export const DEV_STATE_DIR = join(repo, '.edgeattest');
/** Where the development signing key is kept. */
export const DEV_KEY_PATH = join(DEV_STATE_DIR, 'dev-signing-key.pem');
/** The name, in the state folder, of the development key's certificate chain (leaf, root). */
export const DEV_CHAIN_FILE = 'dev-signing-certificate.pem';

function readConfigFile(variable, env) {
  const path = env[variable];
  if (!path) return undefined;
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    throw new Error(`${variable}=${path}: cannot read the file (${error.code ?? error.message})`);
  }
}

function pem(label, der) {
  const base64 = Buffer.from(der).toString('base64').replace(/.{1,64}/g, '$&\n');
  return `-----BEGIN ${label}-----\n${base64}-----END ${label}-----\n`;
}

/**
 * The state folder, made if absent and kept private (0700), and every secret in it 0600: on
 * every start, so a key made or copied with a wider mode is narrowed, and the user told
 * (`warn`, stderr). POSIX modes only: Windows has none to narrow.
 */
function privateState(dir, warn) {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  narrow(dir, 0o700, warn);
}

/** `path` no wider than `mode`: a wider mode is set to `mode`, and said. */
function narrow(path, mode, warn) {
  if (process.platform === 'win32') return;
  const found = statSync(path).mode & 0o777;
  if ((found & ~mode) === 0) return;
  chmodSync(path, mode);
  const octal = (bits) => bits.toString(8).padStart(4, '0');
  warn(`edgeattest: ${path} was mode ${octal(found)}, open to other users; now ${octal(mode)}, as it holds development secrets`);
}

/** The development signing key: created on first start with WebCrypto, then reused. */
export async function developmentSigningKey(log = () => {}, dir = DEV_STATE_DIR, warn = console.error) {
  const path = join(dir, 'dev-signing-key.pem');
  privateState(dir, warn);
  if (existsSync(path)) {
    narrow(path, 0o600, warn);
    return readFileSync(path, 'utf8');
  }
  const pair = await webcrypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-384' }, true, ['sign', 'verify']);
  const text = pem('PRIVATE KEY', await webcrypto.subtle.exportKey('pkcs8', pair.privateKey));
  writeFileSync(path, text, { mode: 0o600 });
  chmodSync(path, 0o600);
  log(`created a development signing key in ${path}`);
  return text;
}

/** Where the development API keys are kept (git-ignored; 30-day keys, renewed when expired). */
export const DEV_API_KEYS_PATH = join(DEV_STATE_DIR, 'dev-api-keys.json');

/** The gateway's development key set: one personal key per role and a few service keys. */
async function developmentApiKeys(log, dir, warn) {
  const path = join(dir, 'dev-api-keys.json');
  const now = Math.floor(Date.now() / 1000);
  privateState(dir, warn);
  if (existsSync(path)) {
    narrow(path, 0o600, warn);
    const saved = JSON.parse(readFileSync(path, 'utf8'));
    if (saved.keys.every((key) => key.expiresAt > now + 3600)) return { set: saved, path };
  }
  const { devKeySet } = await import('../pkg/service/index.js');
  const set = devKeySet(now);
  // The mode given applies to a new file only: a renewed one is narrowed after.
  writeFileSync(path, JSON.stringify(set, null, 1), { mode: 0o600 });
  narrow(path, 0o600, warn);
  log(`created development API keys in ${path}`);
  return { set, path };
}

/**
 * The command that prints the development API key `id` from the key file at `path` (the keys
 * are never printed at start: a terminal's scroll-back and a CI log keep them).
 */
export function apiKeyCommand(path, id) {
  return `node -p "require('${path}').keys.find((k) => k.id === '${id}').key"`;
}

/** RIM documents of a folder: every .xml / .swidtag file, the id taken from the document. */
function rimFolder(dir) {
  let names;
  try {
    names = readdirSync(dir);
  } catch (error) {
    throw new Error(`EDGEATTEST_RIM_DIR=${dir}: cannot read the folder (${error.code ?? error.message})`);
  }
  return names
    .filter((name) => /\.(xml|swidtag)$/i.test(name))
    .map((name) => ({ name, xml: readFileSync(join(dir, name), 'utf8') }));
}

/**
 * The worker bindings for the local run. `dir`: where the development key, its certificate
 * chain and the API keys are kept; `now`: Unix seconds, the clock the chain is checked and
 * made with (both for tests); `warn`: where a narrowed file mode is said (stderr).
 * @returns {Promise<{ port: number, bindings: Record<string, string> }>}
 */
export async function localBindings(env = process.env, log = console.log, { dir = DEV_STATE_DIR, now, warn = console.error } = {}) {
  const port = env.EDGEATTEST_PORT ?? '8787';
  if (!/^\d+$/.test(port) || Number(port) < 1 || Number(port) > 65535) {
    throw new Error(`EDGEATTEST_PORT must be a port number from 1 to 65535, got ${JSON.stringify(port)}`);
  }
  const configuredKey = readConfigFile('EDGEATTEST_SIGNING_KEY', env);
  const bindings = { EDGEATTEST_SIGNING_KEY: configuredKey ?? (await developmentSigningKey(log, dir, warn)) };
  const certificate = readConfigFile('EDGEATTEST_SIGNING_CERTIFICATE', env);
  if (certificate) {
    bindings.EDGEATTEST_SIGNING_CERTIFICATE = certificate;
  } else if (configuredKey === undefined) {
    // The development key gets a development chain, so the JWKS carries x5c as NVIDIA's
    // SDKs require (pkg-config/dev-certificate.mjs). A configured key without a certificate
    // is published without x5c: we cannot certify someone else's key.
    bindings.EDGEATTEST_SIGNING_CERTIFICATE = developmentCertificateChain(bindings.EDGEATTEST_SIGNING_KEY, {
      path: join(dir, DEV_CHAIN_FILE),
      ...(now !== undefined && { now }),
      log,
    });
  }
  // Keys rotated out stay published until every token they signed has expired.
  const retired = readConfigFile('EDGEATTEST_RETIRED_KEYS', env);
  if (retired) bindings.EDGEATTEST_RETIRED_KEYS = retired;
  const trust = readConfigFile('EDGEATTEST_TRUST_ANCHORS', env);
  if (trust) bindings.EDGEATTEST_TRUST_ANCHORS = trust;
  const rimTrust = readConfigFile('EDGEATTEST_RIM_TRUST_ANCHORS', env);
  if (rimTrust) bindings.EDGEATTEST_RIM_TRUST_ANCHORS = rimTrust;
  const policy = readConfigFile('EDGEATTEST_POLICY', env);
  if (policy) bindings.EDGEATTEST_POLICY = policy;
  if (env.EDGEATTEST_RIM_DIR) bindings.EDGEATTEST_RIM_DOCUMENTS = JSON.stringify(rimFolder(env.EDGEATTEST_RIM_DIR));
  // The sources: NVIDIA's RIM service and OCSP responder unless set; `off` switches one off.
  for (const name of ['EDGEATTEST_RIM_SERVICE_URL', 'EDGEATTEST_OCSP_URL']) {
    if (!env[name]) continue;
    bindings[name] = env[name] === 'off' ? 'off' : new URL(env[name]).toString(); // throws on a malformed URL
  }
  for (const name of ['EDGEATTEST_OCSP_TIMEOUT_MS', 'EDGEATTEST_FETCH_CACHE', 'EDGEATTEST_RIM_MIRRORS', 'EDGEATTEST_OCSP_MIRRORS', 'EDGEATTEST_OCSP_STALE_IF_ERROR']) if (env[name]) bindings[name] = env[name];
  const apiKeys = readConfigFile('EDGEATTEST_API_KEYS', env);
  if (apiKeys) {
    bindings.EDGEATTEST_API_KEYS = apiKeys;
  } else {
    const { set, path } = await developmentApiKeys(log, dir, warn);
    bindings.EDGEATTEST_API_KEYS = JSON.stringify(set.keyStore);
    log(`development API keys for the gateway at /api/v3/ (Authorization: Bearer <key>), kept in ${path}:`);
    for (const key of set.keys) log(`  ${key.id.padEnd(22)} ${(key.roles ?? key.scopes).join(', ')}`);
    log(`  print one: ${apiKeyCommand(path, set.keys[0].id)}`);
  }
  if (env.EDGEATTEST_LIST_UPSTREAM) bindings.EDGEATTEST_LIST_UPSTREAM = new URL(env.EDGEATTEST_LIST_UPSTREAM).toString();
  if (env.EDGEATTEST_SIM_UPSTREAM) bindings.EDGEATTEST_SIM_UPSTREAM = new URL(env.EDGEATTEST_SIM_UPSTREAM).toString();
  if (env.EDGEATTEST_CRYPTO) {
    if (!['webcrypto', 'software'].includes(env.EDGEATTEST_CRYPTO)) {
      throw new Error(`EDGEATTEST_CRYPTO must be webcrypto or software, got ${JSON.stringify(env.EDGEATTEST_CRYPTO)}`);
    }
    bindings.EDGEATTEST_CRYPTO = env.EDGEATTEST_CRYPTO;
  }
  if (env.EDGEATTEST_FIXED_TIME) bindings.EDGEATTEST_FIXED_TIME = env.EDGEATTEST_FIXED_TIME;
  if (env.EDGEATTEST_TEST_PKI) bindings.EDGEATTEST_TEST_PKI = env.EDGEATTEST_TEST_PKI; // development only (start.sh)
  if (env.EDGEATTEST_BUNDLED_RIMS) bindings.EDGEATTEST_BUNDLED_RIMS = env.EDGEATTEST_BUNDLED_RIMS;
  if (env.EDGEATTEST_REQUIRE_FWID) bindings.EDGEATTEST_REQUIRE_FWID = env.EDGEATTEST_REQUIRE_FWID;
  if (env.EDGEATTEST_ISSUER) bindings.EDGEATTEST_ISSUER = new URL(env.EDGEATTEST_ISSUER).toString().replace(/\/$/, '');
  return { port: Number(port), bindings };
}
