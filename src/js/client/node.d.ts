/**
 * The client subset of edgeattest (a third of the full module's size): nonces, attest
 * requests and the verification of the tokens that come back. In browsers call
 * `await init()` once first.
 *
 * @packageDocumentation
 * @module edgeattest/client
 */
export * from './api.js';
export { init, type InitInput } from './init.js';
