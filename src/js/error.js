// The package's one error class. Errors made in wasm (src/wasm/error.rs) are plain `Error`s
// named 'EdgeAttestError' with a string `code`; errors made here are instances of the class.
// `instanceof` checks the brand (name and code), so it is true for both, and for errors from
// another copy of the package (a bundle that inlines it twice, the client entry and the full one).

const NAME = 'EdgeAttestError';

export class EdgeAttestError extends Error {
  /**
   * @param {string} code the stable ERR_* code
   * @param {string} message
   * @param {{ field?: string, cause?: unknown }} [options]
   */
  constructor(code, message, options = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = NAME;
    this.code = code;
    if (options.field !== undefined) this.field = options.field;
  }

  static [Symbol.hasInstance](value) {
    return (
      value !== null
      && typeof value === 'object'
      && (Error.prototype.isPrototypeOf(value) || Object.prototype.toString.call(value) === '[object Error]')
      && value.name === NAME
      && typeof value.code === 'string'
    );
  }
}

/** An EdgeAttestError (the form the modules of this package use). */
export function coded(code, message, field) {
  return new EdgeAttestError(code, message, field ? { field } : {});
}
