// The worker's own error answers (its 404, 405, 413, 502 and 503): made by the core
// (errorResponse: the one error-body shape, ErrorBody, with the headers of every service
// answer), never written here by hand.
import { errorResponse } from '../pkg/service/workerd.js';

/** The Response for an error: `{code, message, status}` JSON, plus `headers` (e.g. allow). */
export function errorAnswer(status, code, message, headers = {}) {
  const answer = errorResponse({ status, code, message });
  const response = new Response(answer.body, answer);
  for (const [name, value] of Object.entries(headers)) response.headers.set(name, value);
  return response;
}
