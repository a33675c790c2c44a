// A source in front of a real one (the loopback OCSP responder or RIM service), on loopback,
// that misbehaves on demand: 'fine' relays each request to the upstream unchanged; 'down'
// drops the connection (the host sees no answer); 'slow' never answers; 'garbage' answers
// 200 with a body that is no document; 'http503' answers 503. Counts what it was asked
// (GET and POST: the hosts' probes of their sources, HEAD, are not counted).
import { createServer } from 'node:http';
import { createServer as createNetServer } from 'node:net';

/** Starts the source; resolves to { url, base, setMode, asked, close }. */
export async function startFlakySource(upstream) {
  let mode = 'fine';
  let asked = 0;
  const held = new Set();
  const server = createServer(async (request, response) => {
    if (request.method !== 'HEAD') asked += 1;
    const chunks = [];
    for await (const chunk of request) chunks.push(chunk);
    if (mode === 'down') {
      request.socket.destroy();
      return;
    }
    if (mode === 'slow') {
      held.add(response);
      return;
    }
    if (mode === 'http503') {
      response.writeHead(503).end();
      return;
    }
    if (mode === 'garbage') {
      response.writeHead(200, { 'content-type': 'application/json' }).end('<html>maintenance</html>');
      return;
    }
    const target = new URL(request.url, upstream);
    const answer = await fetch(target, {
      method: request.method,
      headers: request.headers['content-type'] ? { 'content-type': request.headers['content-type'] } : {},
      body: request.method === 'POST' ? Buffer.concat(chunks) : undefined,
    });
    const body = Buffer.from(await answer.arrayBuffer());
    response.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/octet-stream' }).end(body);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${server.address().port}/`;
  return {
    /** The origin with a slash: an OCSP responder URL, or a RIM service base. */
    base,
    setMode(next) {
      mode = next;
    },
    asked: () => asked,
    reset() {
      asked = 0;
    },
    async close() {
      for (const response of held) response.destroy();
      server.closeAllConnections?.();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** A loopback port nothing listens on (a connection to it is refused). */
export async function closedPort() {
  const server = createNetServer();
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return port;
}
