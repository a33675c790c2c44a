// Compiled with tsc --strict by tests/js/runtimes.test.mjs (tsconfig.json): the published
// types of readServiceBindings as a host uses them, the TEST PKI's collateral optional. Each
// line marked @ts-expect-error must be an error, or tsc fails.
import { readServiceBindings, type ServiceBindings, type TestPkiCollateral } from '../../../pkg/service/index.js';

declare const env: Record<string, unknown>;
const collateral: TestPkiCollateral = {
  label: 'edgeattest TEST PKI',
  deviceRoots: '-----BEGIN CERTIFICATE-----',
  rimRoots: '-----BEGIN CERTIFICATE-----',
  rims: [{ id: 'NV_GPU_DRIVER_GH100_550.90.07', xml: '<SoftwareIdentity/>' }],
  ocspAnswers: '{}',
};
const plain: ServiceBindings = readServiceBindings(env);
const withPki: ServiceBindings = readServiceBindings(env, collateral);
const answer: Uint8Array | undefined = withPki.testPkiAnswers?.get('sha384:00:01');
const trusted: boolean = plain.testPki;

// @ts-expect-error: RIMs are named by their id; the core names them configured-roots/<id>.xml
readServiceBindings(env, { ...collateral, rims: [{ name: 'a.xml', xml: '<a/>' }] });
// @ts-expect-error: the OCSP answers are the JSON text as bundled
readServiceBindings(env, { ...collateral, ocspAnswers: {} });

export { answer, trusted };
