// The package's API, shared by every entry module (index.js, workerd.js). Entry modules
// instantiate the wasm module first; nothing here touches wasm at import time.
export {
  generateNonce,
  buildAttestRequest,
  validateAttestRequest,
} from './edgeattest.js';
export * from './token.js';
