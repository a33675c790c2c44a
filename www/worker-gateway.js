// The edge gateway in front of the simulation service (spec: access-control.md): every
// /api/v3/… request is authenticated and authorized by the wasm core (gatewayDecision) and,
// when allowed, forwarded to EDGEATTEST_SIM_UPSTREAM. What goes upstream is the core's
// decision.forward alone — its target (query without method overrides) and its header list
// (the client's minus stripped ones, plus the key's identity); this file adds no header rule.
//
// Error bodies never carry text from the key store, the upstream or the runtime: the details
// go to the log (never the key), the client gets a code.
//
// Key records come from EDGEATTEST_API_KEYS (key-store JSON, digests only), from a KV
// namespace EDGEATTEST_API_KEYS_KV (record per SHA-256 digest), or — with neither — from a
// development key set created on first use and printed to the log.
//
// A forwarded request's body is read within the core's request-body limit (MAX_BODY_BYTES,
// the service's own) and a larger one answered 413: never read past the limit, nor kept
// (worker-body.js).
import { ApiGateway, EdgeAttestError, bearerToken, devKeySet, gatewayDecision, hashApiKey, serviceLimits } from '../pkg/service/workerd.js';
import { errorAnswer } from './worker-answer.js';
import { readRequestBody } from './worker-body.js';

const { maxBodyBytes } = serviceLimits();

let developmentStore;
/** The gateway over the configured (or development) key store, parsed once per store text. */
let parsed;

async function keyStore(request, env, url) {
  if (env.EDGEATTEST_API_KEYS_KV) {
    // Only the digest of the presented key is looked up; no record, no grant. The core reads
    // the credential (bearerToken) and the key (hashApiKey); a request it refuses finds no
    // record, and the decision names why.
    let record = null;
    try {
      const key = bearerToken(request.headers.get('authorization'), url.search.slice(1));
      record = await env.EDGEATTEST_API_KEYS_KV.get(hashApiKey(key), 'json');
    } catch {
      record = null;
    }
    return { keys: record ? [record] : [] };
  }
  if (env.EDGEATTEST_API_KEYS) return env.EDGEATTEST_API_KEYS;
  if (!developmentStore) {
    const set = devKeySet(Math.floor(Date.now() / 1000));
    console.log('edgeattest gateway: no key store configured; development keys (30 days):');
    for (const key of set.keys) console.log(`  ${key.id.padEnd(22)} ${key.key}  ${(key.roles ?? key.scopes).join(',')}`);
    developmentStore = JSON.stringify(set.keyStore);
  }
  return developmentStore;
}

function decide(input, store, now) {
  // A KV lookup gives a one-record store per request; a configured store is parsed once.
  if (typeof store !== 'string') return gatewayDecision(input, store, now);
  if (parsed?.text !== store) {
    const next = { text: store, gateway: new ApiGateway(store) };
    parsed?.gateway.free();
    parsed = next;
  }
  return parsed.gateway.decide(input, now);
}

export async function gateway(request, env, url) {
  let decision;
  try {
    decision = decide(
      { method: request.method, url: request.url, authorization: request.headers.get('authorization') ?? undefined, headers: request.headers },
      await keyStore(request, env, url),
      Math.floor(Date.now() / 1000),
    );
  } catch (error) {
    // A key store that does not parse is a configuration error, never an open gate.
    console.error(`edgeattest gateway: the key store is not usable: ${error.code ?? ''} ${error.message}`);
    return errorAnswer(503, error.code ?? 'ERR_GATEWAY_KEYSTORE', "the gateway's key store is not usable");
  }
  if (!decision.allow) {
    const headers = new Headers(decision.headers);
    headers.set('access-control-allow-origin', '*');
    return new Response(decision.body ? JSON.stringify(decision.body) : null, { status: decision.status, headers });
  }
  if (!env.EDGEATTEST_SIM_UPSTREAM) {
    return errorAnswer(502, 'ERR_GATEWAY_NO_UPSTREAM', 'EDGEATTEST_SIM_UPSTREAM is not configured');
  }
  const target = new URL(decision.forward.target, env.EDGEATTEST_SIM_UPSTREAM);
  const headers = new Headers(decision.forward.headers);
  let body;
  if (!['GET', 'HEAD'].includes(request.method)) {
    try {
      body = await readRequestBody(request, maxBodyBytes);
    } catch (error) {
      if (error instanceof EdgeAttestError) return errorAnswer(error.status, error.code, error.message);
      throw error;
    }
  }
  let response;
  try {
    response = await fetch(target, { method: request.method, headers, body, redirect: 'manual' });
  } catch (error) {
    // The runtime's text can name internal hosts and addresses: logged, not answered.
    console.error(`edgeattest gateway: the upstream did not answer ${request.method} ${decision.forward.path} (key ${decision.audit.keyId}): ${error.message}`);
    return errorAnswer(502, 'ERR_GATEWAY_UPSTREAM_UNREACHABLE', 'the upstream did not answer');
  }
  const out = new Response(response.body, response);
  out.headers.set('access-control-allow-origin', '*');
  out.headers.append('access-control-expose-headers', 'WWW-Authenticate');
  return out;
}
