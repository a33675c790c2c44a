// Real fixtures for the JS tests (tests/fixtures, with provenance).
import { readFileSync } from 'node:fs';

const root = new URL('../../fixtures/nvidia/', import.meta.url);
export const fixtureText = (path) => readFileSync(new URL(path, root), 'utf8');
export const fixtureBytes = (path) => readFileSync(new URL(path, root));
export const hexBytes = (path) => Uint8Array.from(Buffer.from(fixtureText(path).trim(), 'hex'));

export const hopper = {
  evidence: hexBytes('evidence/hopper/nvat_hopper_535.86.09_report.hex'),
  certificate: fixtureText('evidence/hopper/nvat_hopper_535.86.09_certchain.pem'),
};
export const ls10 = {
  evidence: hexBytes('evidence/switch/nvat_ls10_96.10.55.00.01_report.hex'),
  certificate: fixtureText('evidence/switch/nvat_ls10_96.10.55.00.01_certchain.pem'),
};

/**
 * A recorded NRAS exchange (nras/teep/NAME_*.json): the result, the JWKS it was signed
 * under, the request's nonce and the overall token's iat.
 */
export function capture(name) {
  const json = (kind) => JSON.parse(fixtureText(`nras/teep/${name}_${kind}.json`));
  const response = json('response');
  const overall = JSON.parse(Buffer.from(response[0][1].split('.')[1], 'base64url'));
  return { response, jwks: json('jwks'), nonce: json('request').nonce, iat: overall.iat };
}
