// The package's API, shared by every entry module (index.js, workerd.js). Entry modules
// instantiate the wasm module first; nothing here touches wasm at import time.
export {
  generateNonce,
  buildAttestRequest,
  validateAttestRequest,
  verifyEvidence,
  prepareEvidence,
  verifyCertificateChain,
  EvidenceBatch,
  verifyRim,
  prepareRim,
  openRimEnvelope,
  rimIds,
  compareGpuRims,
  compareSwitchRim,
  VerifiedRim,
  PendingRim,
  AttestationService,
} from './edgeattest.js';
export * from './token.js';
export * from './evidence.js';
