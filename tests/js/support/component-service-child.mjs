// One instance of the service component served on 127.0.0.1, in its own process: the
// component answers a request synchronously on the main thread (preview2-shim's HTTPServer),
// so a loopback source in the test's process would never be answered while it waits.
//   node component-service-child.mjs OUT_DIR    (EDGEATTEST_COMPONENT_ENV: the instance's environment, JSON)
// Prints `listening <port>` once ready; stops on SIGTERM.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { pathToFileURL } from 'node:url';
import { WASIShim } from '@bytecodealliance/preview2-shim/instantiation';
import { HTTPServer } from '@bytecodealliance/preview2-shim/http';

const outDir = process.argv[2];
const env = JSON.parse(process.env.EDGEATTEST_COMPONENT_ENV ?? '{}');
const { instantiate } = await import(pathToFileURL(`${outDir}service.js`).href);
const shim = new WASIShim({ sandbox: { env } });
const compile = (name) => WebAssembly.compile(readFileSync(`${outDir}${name}`));
const instance = await instantiate(compile, shim.getImportObject());

// A free port (HTTPServer.listen needs one named).
const probe = createServer();
await new Promise((resolve) => probe.listen(0, '127.0.0.1', resolve));
const { port } = probe.address();
await new Promise((resolve) => probe.close(resolve));

const server = new HTTPServer(instance.incomingHandler);
server.listen(port, '127.0.0.1');
process.on('SIGTERM', () => {
  server.stop();
  process.exit(0);
});
console.log(`listening ${port}`);
