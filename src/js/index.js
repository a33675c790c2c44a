// Default entry (no bundler condition matched; also what a plain <script type="module"> or a
// CDN imports by path): the wasm module is instantiated at import with top-level await, so
// every exported function is ready to call. Bundlers pick browser.js (explicit init()),
// Node and Deno node.js, workerd and Cloudflare Workers workerd.js.
import { init } from './init.js';

await init();

export * from './api.js';
export { init };
