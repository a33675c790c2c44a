// The edgeattest edge worker: a module worker (fetch handler) for workerd and Cloudflare
// Workers. It serves the verification page at /ui/ and the service's JSON endpoints; all
// decisions are made by the wasm core, this file only moves bytes.
import * as edgeattest from '../pkg/workerd.js';
import { SITE } from './site.js';

const DOCUMENTATION =
  'edgeattest: NVIDIA GPU and switch attestation at the edge. API: POST /v4/attest/gpu, ' +
  '/v4/attest/switch (and v1-v3), GET /.well-known/jwks.json, GET /health. ' +
  'Verification page: /ui/. Documentation: https://github.com/edgeattest/edgeattest#readme';

const decoded = new Map();

function asset(path) {
  const file = SITE[path];
  if (!file) return null;
  let body = decoded.get(path);
  if (!body) {
    body = Uint8Array.from(atob(file.body), (c) => c.charCodeAt(0));
    decoded.set(path, body);
  }
  return new Response(body, {
    headers: {
      'content-type': file.type,
      'cache-control': 'no-cache',
      'x-content-type-options': 'nosniff',
    },
  });
}

function json(status, value, headers = {}) {
  return new Response(JSON.stringify(value), {
    status,
    headers: { 'content-type': 'application/json', ...headers },
  });
}

function notFound(path) {
  return json(404, { error: { code: 'ERR_NOT_FOUND', message: `no resource at ${path}`, status: 404 } });
}

export default {
  async fetch(request) {
    const url = new URL(request.url);
    const path = url.pathname;
    if (path === '/ui') return Response.redirect(new URL('/ui/', url).toString(), 308);
    if (path.startsWith('/ui/')) {
      if (request.method !== 'GET' && request.method !== 'HEAD') {
        return json(405, { error: { code: 'ERR_METHOD_NOT_ALLOWED', message: `${request.method} is not allowed on ${path}`, status: 405 } }, { allow: 'GET, HEAD' });
      }
      return asset(path) ?? notFound(path);
    }
    if (path === '/' && request.method === 'GET') return json(200, DOCUMENTATION);
    // The attestation service's routes come from the wasm core (see src/service).
    void edgeattest;
    return notFound(path);
  },
};
