// The verified RIM mirror's host side: `GET /v1/rim/<id>` as NVIDIA's RIM service answers it,
// from what the service verified. The core decides every answer (AttestationService
// .mirrorRim): its own documents, else the envelope kept under `mirror-rim:<id>` (an
// attestation's verified fetch, or an earlier mirror fetch) — each verified again now —
// else it names the configured RIM service, the worker fetches the envelope there (the
// core's timeout and size cap) and asks again; an envelope that verified is kept (memory and
// the Cache API, so it outlives the isolate). A document that does not verify is never
// served nor kept. `GET /v1/rim/ids` is the core's router's (the ids the service holds).
import { cacheMirrored, mirrorRimKey, serviceLimits } from '../pkg/service/workerd.js';
import { fetchCapped } from '../pkg/service/http.js';

const { maxFetchedBytes, rimTimeoutMs } = serviceLimits();

/** Whether `request` asks the mirror for one RIM (`/v1/rim/ids` and other methods: the core's router). */
export function isMirrorRimRequest(request, url) {
  return ['GET', 'HEAD'].includes(request.method) && url.pathname.startsWith('/v1/rim/') && url.pathname !== '/v1/rim/ids';
}

/** The mirror's answer for the RIM `url` names. */
export async function mirrorRim(service, request, url, { cache, now, fetch = globalThis.fetch }) {
  let id;
  try {
    id = decodeURIComponent(url.pathname.slice('/v1/rim/'.length));
  } catch {
    id = url.pathname.slice('/v1/rim/'.length);
  }
  const kept = await cache.get(mirrorRimKey(id), now);
  let answer = service.mirrorRim(id, kept?.body, now);
  if (answer.fetch && !kept?.body) {
    const fetched = await fetchCapped(fetch, answer.fetch, { method: 'GET', headers: { accept: 'application/json' } }, { timeoutMs: rimTimeoutMs, maxBytes: maxFetchedBytes });
    if (fetched.body) answer = service.mirrorRim(id, fetched.body, now);
  }
  if (answer.store) await cacheMirrored([answer.store], now, cache);
  const { status, headers, body } = answer.response;
  return new Response(request.method === 'HEAD' ? null : body, { status, headers });
}
