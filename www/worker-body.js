// The worker's request bodies: each route reads one within its limit (readBody, the package's
// bounded reader), and what a route left unread is drained after the answer. workerd does not
// keep a connection whose request body was left unread: it closes it after the answer, and a
// client that has already sent its next request on that keep-alive connection gets a reset.
import { discardBody, readBody } from '../pkg/service/body.js';

/**
 * How much of a request body the answer did not need is read and dropped after the answer
 * (drain); a body declared larger is cut (cancelled) instead. A body without a Content-Length
 * that passed its route's limit was cancelled there and is not drained: its size is unknown.
 */
const DRAIN_LIMIT_BYTES = 16 * 1024 * 1024;

/**
 * The bytes of a request's body, at most `limit` (readBody; `refusal`: its code, status and
 * wording). A body refused by its Content-Length alone is left unread for drain, so that a
 * client that declared it sees the 413 on a connection it can keep.
 */
export function readRequestBody(request, limit, refusal = {}) {
  return readBody(request, limit, { ...refusal, cancelDeclared: false });
}

/**
 * Reads and drops what is left of a request body the answer did not need: a refused POST
 * (the relay's 404, a 405, a gateway denial), a body refused by its Content-Length. Past
 * DRAIN_LIMIT_BYTES the connection is cut instead. A body read in part is not drained.
 */
export async function drain(request) {
  if (request.body && !request.bodyUsed) await discardBody(request, DRAIN_LIMIT_BYTES).catch(() => {});
}
