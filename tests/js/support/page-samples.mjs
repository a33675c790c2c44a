// The verification page's bundled samples (www/samples/*.json), made from the repository's
// fixtures: real NVIDIA evidence (tests/fixtures/nvidia, Apache-2.0 sources only — never the
// AGPL TEEP recordings), and the same real transcripts re-signed by the edgeattest TEST PKI
// (tests/fixtures/generated/demo: not NVIDIA), which the main job trusts in development only.
// Each sample names where its collateral comes from and what the main job answers offline.
//
//   node tests/js/support/page-samples.mjs          # rewrites www/samples/*.json
//
// tests/js/page-samples.test.mjs checks that the committed files equal what this produces.
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const fixtures = new URL('../../fixtures/nvidia/', import.meta.url);
const demo = new URL('../../fixtures/generated/demo/', import.meta.url);
const samplesDir = new URL('../../../www/samples/', import.meta.url);
const text = (path) => readFileSync(new URL(path, fixtures), 'utf8');

/** Where a sample's collateral comes from. */
const COLLATERAL = {
  testPki: {
    source: 'edgeattest-test-pki',
    label:
      'edgeattest TEST PKI, not NVIDIA: a real NVIDIA transcript re-signed with a test key; test RIMs and ' +
      'static OCSP answers bundled (keys public in tests/fixtures/generated/ocsp). Trusted by the main job ' +
      'in development only (EDGEATTEST_TEST_PKI=on, set by pkg-config/start.sh)',
  },
  nvidia: {
    source: 'nvidia',
    label:
      "Recorded from a real NVIDIA device: checked against NVIDIA's roots, NVIDIA's RIM service and NVIDIA's " +
      'OCSP responder, so it needs the internet (offline: 5001, the responder is unreachable)',
  },
};

/** What the main job (start.sh) answers offline. */
const OFFLINE_5001 = { result: 'fail', code: 5001, reason: "NVIDIA's OCSP responder is unreachable offline (go online, or EDGEATTEST_OCSP_URL=off)" };

const TEST_PKI_EVIDENCE = [
  {
    id: 'testpki-hopper-550.90.07',
    title: 'Hopper H100, driver 550.90.07 — TEST PKI (not NVIDIA) — expect: pass',
    arch: 'HOPPER',
    demo: 'hopper_550.90.07_good',
    expect: { result: 'pass', reason: 'RIMs compared (driver and VBIOS), every chain OCSP good' },
  },
  {
    id: 'testpki-blackwell-575.32',
    title: 'Blackwell GB100, driver 575.32 — TEST PKI (not NVIDIA) — expect: pass',
    arch: 'BLACKWELL',
    demo: 'blackwell_575.32_good',
    expect: { result: 'pass', reason: 'RIMs compared (driver and VBIOS), every chain OCSP good' },
  },
  {
    id: 'testpki-ls10-96.10.55.00.01',
    title: 'NVSwitch LS10, BIOS 96.10.55.00.01 — TEST PKI (not NVIDIA) — expect: pass',
    arch: 'LS10',
    demo: 'ls10_96.10.55.00.01_good',
    expect: { result: 'pass', reason: 'switch BIOS RIM compared, every chain OCSP good' },
  },
  {
    id: 'testpki-hopper-revoked',
    title: 'Hopper H100, revoked device certificate — TEST PKI (not NVIDIA) — expect: fail 5002',
    arch: 'HOPPER',
    demo: 'hopper_550.90.07_revoked',
    expect: { result: 'fail', code: 5002, reason: 'the device BROM certificate is revoked (keyCompromise)' },
  },
  {
    id: 'testpki-hopper-unknown',
    title: 'Hopper H100, certificate unknown to OCSP — TEST PKI (not NVIDIA) — expect: fail 5003',
    arch: 'HOPPER',
    demo: 'hopper_550.90.07_unknown',
    expect: { result: 'fail', code: 5003, reason: "the OCSP responder does not know the device's BROM certificate" },
  },
  {
    id: 'testpki-hopper-tampered',
    title: 'Hopper H100, a driver measurement altered — TEST PKI (not NVIDIA) — expect: fail, measurement mismatch',
    arch: 'HOPPER',
    demo: 'hopper_550.90.07_tampered',
    expect: { result: 'fail', reason: "measres: fail, driver measurement 33 does not match its RIM (no error code, as NVIDIA's service)" },
  },
  {
    id: 'testpki-hopper-nonce',
    title: 'Hopper H100, sent with another nonce — TEST PKI (not NVIDIA) — expect: fail 4010',
    arch: 'HOPPER',
    demo: 'hopper_550.90.07_good',
    nonce: '00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff',
    expect: { result: 'fail', code: 4010, reason: "the request's nonce is not the one the evidence answers" },
  },
  {
    id: 'testpki-hopper-535.86.09-no-rim',
    title: 'Hopper H100, driver 535.86.09, no test RIM — TEST PKI (not NVIDIA) — expect: fail, RIM not available',
    arch: 'HOPPER',
    demo: 'hopper_535.86.09_rim_missing',
    expect: {
      result: 'fail',
      code: 5008,
      reason: 'no RIM NV_GPU_DRIVER_GH100_535.86.09 for a test PKI device (5009 when the RIM service is off); the message says how to provide it',
    },
  },
];

const EVIDENCE = [
  {
    id: 'hopper-535.86.09',
    title: 'Hopper H100, driver 535.86.09 — NVIDIA, recorded (attestation-sdk) — needs the internet',
    arch: 'HOPPER',
    nonce: '27a328247bf7935c993341cf587be6f05986ccce4fe7ba2c54100bd616a58f66',
    report: 'evidence/hopper/nvat_hopper_535.86.09_report.hex',
    chain: 'evidence/hopper/nvat_hopper_535.86.09_certchain.pem',
    rims: { firmware: 'vbios-1010-0200-882-96005E0001-prod' },
  },
  {
    id: 'hopper-550.90.07',
    title: 'Hopper H100, driver 550.90.07 — NVIDIA, recorded (nvtrust) — needs the internet',
    arch: 'HOPPER',
    nonce: '931d8dd0add203ac3d8b4fbde75e115278eefcdceac5b87671a748f32364dfcb',
    report: 'evidence/hopper/nvtrust_hopper_550.90.07_report.hex',
    chain: 'evidence/hopper/nvtrust_hopper_550.90.07_certchain.pem',
    rims: {},
  },
  {
    id: 'hopper-545.00',
    title: 'Hopper H100, driver 545.00 — NVIDIA, recorded (go-nvtrust; matches the nvtrust test RIMs) — needs the internet',
    arch: 'HOPPER',
    nonce: '4cff7f5380ead8fad8ec2c531c110aca4302a88f603792801a8ca29ee151af2e',
    report: 'evidence/hopper/gonvtrust_hopper_545.00_report.hex',
    chain: 'evidence/hopper/gonvtrust_hopper_545.00_certchain.pem',
    rims: { driver: 'driver-545.00-test', firmware: 'vbios-1010-0200-882-96005E0001-test' },
  },
  {
    id: 'blackwell-575.32',
    title: 'Blackwell GB100, driver 575.32 — NVIDIA, recorded (attestation-sdk) — needs the internet',
    arch: 'BLACKWELL',
    nonce: '931d8dd0add203ac3d8b4fbde75e115278eefcdceac5b87671a748f32364dfcb',
    report: 'evidence/blackwell/nvat_blackwell_575.32_report.hex',
    chain: 'evidence/blackwell/nvat_blackwell_575.32_certchain.pem',
    rims: {},
  },
  {
    id: 'ls10-96.10.55.00.01',
    title: 'NVSwitch LS10, BIOS 96.10.55.00.01 — NVIDIA, recorded (attestation-sdk) — needs the internet',
    arch: 'LS10',
    nonce: '931d8dd0add203ac3d8b4fbde75e115278eefcdceac5b87671a748f32364dfcb',
    report: 'evidence/switch/nvat_ls10_96.10.55.00.01_report.hex',
    chain: 'evidence/switch/nvat_ls10_96.10.55.00.01_certchain.pem',
    rims: { firmware: 'switch-bios-5612-0002-890-9610550001' },
  },
];

const RIMS = [
  {
    id: 'vbios-1010-0200-882-96005E0001-prod',
    title: 'GH100 VBIOS 96.00.5E.00.01 production RIM (NVIDIA nvtrust)',
    kind: 'firmware',
    file: 'rims/nvtrust/1010_0200_882_96005E0001_PROD.swidtag',
  },
  {
    id: 'driver-545.00-test',
    title: 'GH100 driver 545.00 test RIM (NVIDIA nvtrust "test_no_gpu")',
    kind: 'driver',
    file: 'rims/nvtrust/Driver_RIM_test_no_gpu.swidtag',
  },
  {
    id: 'vbios-1010-0200-882-96005E0001-test',
    title: 'GH100 VBIOS 96.00.5E.00.01 test RIM (NVIDIA nvtrust "test_no_gpu")',
    kind: 'firmware',
    file: 'rims/nvtrust/1010_0200_882_96005E0001_test_no_gpu.swidtag',
  },
  {
    id: 'switch-bios-5612-0002-890-9610550001',
    title: 'LS10 switch BIOS 96.10.55.00.01 production RIM (NVIDIA attestation-sdk)',
    kind: 'firmware',
    file: 'rims/nvat/switchVBIOSRim_NV_SWITCH_BIOS_5612_0002_890_9610550001.xml',
  },
];

/** The V4 request body of a sample, ready for curl (claims 3.0, as the README's quick start). */
function requestOf({ arch, nonce, evidenceHex, certificatePem }) {
  const evidence = Buffer.from(evidenceHex, 'hex').toString('base64');
  const certificate = Buffer.from(certificatePem).toString('base64');
  return { nonce, arch, claims_version: '3.0', evidence_list: [{ evidence, certificate }] };
}

/** The passing samples (one per architecture) carry their request body, for curl. */
const withRequest = (sample) => (sample.expect?.result === 'pass' ? { ...sample, request: requestOf(sample) } : sample);

export function evidenceSamples() {
  const made = JSON.parse(readFileSync(new URL('samples.json', demo), 'utf8'));
  const demoText = (path) => readFileSync(new URL(path, demo), 'utf8');
  return {
    provenance:
      'Two kinds of sample, each labelled in its collateral member. TEST PKI samples: real NVIDIA ' +
      'transcripts re-signed by the edgeattest TEST PKI (not NVIDIA; tests/fixtures/generated/demo), which ' +
      'the main job trusts in development only, with its RIMs and OCSP answers bundled, so they pass or fail ' +
      'as labelled with no network. NVIDIA samples: real NVIDIA evidence and certificate chains, all from ' +
      'Apache-2.0 repositories (NVIDIA/attestation-sdk, NVIDIA/nvtrust, confidentsecurity/go-nvtrust; ' +
      'tests/fixtures/nvidia/PROVENANCE.md gives source path and commit), checked against NVIDIA online. ' +
      'expect: what the main job (pkg-config/start.sh) answers offline; request (passing samples): the V4 body to POST. Generated by tests/js/support/page-samples.mjs.',
    samples: [
      ...TEST_PKI_EVIDENCE.map(({ demo: stem, nonce, ...sample }) => withRequest({
        ...sample,
        nonce: nonce ?? made[stem].nonce,
        rims: {},
        collateral: COLLATERAL.testPki,
        evidenceHex: demoText(made[stem].report).trim(),
        certificatePem: demoText(made[stem].chain),
        source: `tests/fixtures/generated/demo/${made[stem].report} (re-signed ${made[stem].transcript})`,
        certificateSource: `tests/fixtures/generated/${made[stem].chain.replace('../', '')}`,
      })),
      ...EVIDENCE.map(({ report, chain, ...sample }) => ({
        ...sample,
        collateral: COLLATERAL.nvidia,
        expect: OFFLINE_5001,
        evidenceHex: text(report).trim(),
        certificatePem: text(chain),
        source: `tests/fixtures/nvidia/${report}`,
        certificateSource: `tests/fixtures/nvidia/${chain}`,
      })),
    ],
  };
}

export function rimSamples() {
  return {
    provenance:
      'Real signed NVIDIA reference integrity manifests (SWID tags), from Apache-2.0 ' +
      'repositories (NVIDIA/nvtrust, NVIDIA/attestation-sdk); each names its file in the ' +
      'edgeattest repository (tests/fixtures/nvidia/PROVENANCE.md gives source and commit). ' +
      'Their signer certificates have validity windows: the nvtrust ones expired in 2025. ' +
      'Generated by tests/js/support/page-samples.mjs.',
    rims: RIMS.map(({ file, ...rim }) => ({ ...rim, source: `tests/fixtures/nvidia/${file}`, xml: text(file) })),
  };
}

const PPCIE = {
  gpus: { arch: 'HOPPER', file: 'evidence/serialized/nvtrust_ppcie_gpu_evidence_8gpu.json' },
  switches: { arch: 'LS10', file: 'evidence/serialized/nvtrust_ppcie_switch_evidence_4sw.json' },
};

/** The real PPCIE node (8 GPUs, 4 NVSwitches, one nonce) for the topology panel. */
export function topologySample() {
  const side = ({ arch, file }) => {
    const items = JSON.parse(text(file));
    if (!items.every((item) => item.arch === arch && item.nonce === items[0].nonce)) throw new Error(`${file}: mixed arch or nonce`);
    return {
      nonce: items[0].nonce,
      batch: {
        arch,
        devices: items.map((item) => ({ evidence: item.evidence, certificate: Buffer.from(item.certificate, 'base64').toString('utf8') })),
        source: `tests/fixtures/nvidia/${file}`,
      },
    };
  };
  const gpus = side(PPCIE.gpus);
  const switches = side(PPCIE.switches);
  if (gpus.nonce !== switches.nonce) throw new Error('the GPUs and the switches answer different nonces');
  return {
    provenance:
      "One real protected-PCIe (PPCIE) node of 8 Hopper GPUs and 4 LS10 NVSwitches, as NVIDIA's PPCIE " +
      'verifier tests carry it (NVIDIA/nvtrust guest_tools/ppcie-verifier-sdk-cpp/tests/data, Apache-2.0; ' +
      'tests/fixtures/nvidia/PROVENANCE.md gives the commit): every device answers the same nonce, each chain ' +
      "ends at NVIDIA's Device Identity CA. Evidence as the SDK writes it (base64), chains as PEM. " +
      'Generated by tests/js/support/page-samples.mjs.',
    nonce: gpus.nonce,
    gpus: gpus.batch,
    switches: switches.batch,
  };
}

export const SAMPLE_FILES = {
  'evidence.json': evidenceSamples,
  'rims.json': rimSamples,
  'topology.json': topologySample,
};

export const serialize = (value) => `${JSON.stringify(value, null, 1)}\n`;

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  for (const [name, make] of Object.entries(SAMPLE_FILES)) {
    writeFileSync(new URL(name, samplesDir), serialize(make()));
    console.log(`wrote www/samples/${name}`);
  }
}
