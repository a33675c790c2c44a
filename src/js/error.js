// The package's one error class and its one builder (coded). Errors made in wasm
// (src/wasm/error.rs) are plain `Error`s named 'EdgeAttestError' with a string `code`; errors
// made here are instances of the class.
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

/**
 * The one builder of the package's own errors: an EdgeAttestError with `code`, `message`,
 * `field` (when given) and, from `extra`, the `cause` and any detail members (`status`,
 * `limit`, `timeout`).
 */
export function coded(code, message, field, extra = {}) {
  const { cause, ...details } = extra;
  return Object.assign(new EdgeAttestError(code, message, { field: field || undefined, cause }), details);
}

/** ERR_INVALID_ARGUMENT on `field`: "`field` `must`" (e.g. "backend must be a string"). */
export function invalidArgument(field, must) {
  return coded('ERR_INVALID_ARGUMENT', `${field} ${must}`, field);
}
