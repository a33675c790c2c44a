// Every type and function of the wasm module (initSync is not re-exported at run time: the
// entry modules instantiate the module themselves).
export * from './edgeattest.js';
export * from './token.js';
export * from './evidence.js';

/** Every error this package throws is an `Error` named `EdgeAttestError` with these members. */
export interface EdgeAttestError extends Error {
  name: 'EdgeAttestError';
  /** Stable machine-readable code, e.g. `ERR_REQUEST_INVALID_NONCE`. Never renamed. */
  code: string;
  /** The input member concerned, e.g. `evidence_list[2].certificate`, when there is one. */
  field?: string;
}
