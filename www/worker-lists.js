// The nine analytics list endpoints (spec: pagination-and-deprecation.md part A): filter,
// sort and page by the wasm list engine over a table loaded once per path — the embedded
// generated data set, or the JSON array at EDGEATTEST_LIST_UPSTREAM + path.
import { EdgeAttestError, ListTable, listLimits, listSchemas } from '../pkg/service/workerd.js';
import { readBody } from '../pkg/service/body.js';
import { errorAnswer } from './worker-answer.js';

/**
 * The largest list source read, in bytes: its text and the table made from it live in one
 * isolate's memory (128 MB on Cloudflare Workers). A larger source is cancelled there.
 */
const MAX_LIST_SOURCE_BYTES = 32 * 1024 * 1024;

const PATHS = new Set(listSchemas().map((schema) => schema.path));
const tables = new Map();

export function isListPath(path) {
  return PATHS.has(path);
}

async function table(path, env) {
  let pending = tables.get(path);
  if (!pending) {
    pending = (async () => {
      if (env.EDGEATTEST_LIST_UPSTREAM) {
        const response = await fetch(new URL(path, env.EDGEATTEST_LIST_UPSTREAM));
        if (!response.ok) {
          await response.body?.cancel().catch(() => {});
          throw new EdgeAttestError('ERR_LIST_SOURCE', `the list source answered ${response.status}`);
        }
        const text = await readBody(response, MAX_LIST_SOURCE_BYTES, { code: 'ERR_LIST_SOURCE', status: 502, what: 'the list source' });
        return ListTable.fromJson(path, text);
      }
      const { embeddedRows, embeddedSeed } = listLimits();
      return ListTable.generate(path, embeddedRows, embeddedSeed);
    })();
    tables.set(path, pending);
    // A failed load is not cached: the next request tries again.
    pending.catch(() => tables.delete(path));
  }
  return pending;
}

export async function lists(request, env, url) {
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    return errorAnswer(405, 'ERR_METHOD_NOT_ALLOWED', `${request.method} is not allowed on ${url.pathname}`, { allow: 'GET, HEAD' });
  }
  let rows;
  try {
    rows = await table(url.pathname, env);
  } catch (error) {
    // The source's or the runtime's text can name internal hosts: logged, not answered.
    console.error(`edgeattest lists: the list source for ${url.pathname} is not usable: ${error.code ?? ''} ${error.message}`);
    return errorAnswer(502, error.code ?? 'ERR_LIST_SOURCE', 'the list source is not usable');
  }
  const answer = rows.respond(url.search.replace(/^\?/, ''));
  const headers = { 'content-type': 'application/json', 'access-control-allow-origin': '*' };
  return new Response(request.method === 'HEAD' ? null : answer.body, { status: answer.status, headers });
}
