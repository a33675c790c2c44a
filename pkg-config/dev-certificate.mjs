// The development certificate chain of the development signing key (README: "Configuration
// of the main job"): a self-signed root and a leaf for the key, published in the JWKS as
// `x5c` so that NVIDIA's SDKs accept our JWKS.
//
// What NVIDIA's SDKs ask of a JWKS key (notes attestation §f/§g, jose-x509 §2):
// - nvattest (NVAT): keys without `x5c` are ignored; the token is verified with the key of
//   the `x5c[0]` certificate (parsed by OpenSSL), not with `x`/`y`. So `x5c` must be standard
//   base64 of DER (RFC 7517 §4.7), leaf first, and the leaf's SPKI must be the signing key.
// - nv-attestation-sdk (NVT, Python): the key is chosen by `kid` and must have `x5c`.
// - Neither validates the chain, its validity period or its key usage; the real service's
//   leaf (2-day validity, KU digitalSignature) is signed by an intermediate whose root is not
//   even published. We still make a chain a strict validator accepts (openssl verify, the
//   crate's own chain validator): v3, positive serials, the root a CA with keyCertSign, the
//   leaf digitalSignature only, valid now, ecdsa-with-SHA384 throughout.
//
// Node can parse certificates (X509Certificate) but has no certificate builder, and no npm
// package in package.json builds one, so the TBSCertificate is encoded here by hand (the few
// DER types a certificate needs) and signed with node:crypto (DER ECDSA-Sig-Value, as X.509
// wants, where WebCrypto would give r||s). The root's private key is never stored: it signs
// the two certificates and is dropped, so the development root can certify nothing else.
import { X509Certificate, createHash, createPublicKey, generateKeyPairSync, randomBytes, sign } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

/** Validity of a new chain (both certificates). */
export const DEV_CHAIN_LIFETIME_SECONDS = 30 * 86400;
/** A chain with less than this left is renewed, so it never expires while a server runs for a day. */
export const DEV_CHAIN_RENEW_BEFORE_SECONDS = 86400;
/** notBefore lies this far back, for relying parties whose clocks run a little behind. */
const BACKDATE_SECONDS = 3600;

export const ROOT_NAME = 'edgeattest development root';
export const LEAF_NAME = 'edgeattest development token signing key';

// --- DER (X.690) encoding: only what a certificate needs -------------------------------

function length(n) {
  if (n < 0x80) return Buffer.from([n]);
  const bytes = [];
  for (let rest = n; rest > 0; rest = Math.floor(rest / 256)) bytes.unshift(rest & 0xff);
  return Buffer.from([0x80 | bytes.length, ...bytes]);
}
const tlv = (tag, ...parts) => {
  const body = Buffer.concat(parts);
  return Buffer.concat([Buffer.from([tag]), length(body.length), body]);
};
const sequence = (...parts) => tlv(0x30, ...parts);
const set = (...parts) => tlv(0x31, ...parts);
const explicit = (n, ...parts) => tlv(0xa0 | n, ...parts);
const octetString = (bytes) => tlv(0x04, bytes);
const utf8 = (text) => tlv(0x0c, Buffer.from(text, 'utf8'));
const TRUE = Buffer.from([0x01, 0x01, 0xff]);
/** A non-negative INTEGER from its big-endian magnitude (minimal, with a 0 pad when the top bit is set). */
function unsigned(bytes) {
  let start = 0;
  while (start < bytes.length - 1 && bytes[start] === 0) start += 1;
  const magnitude = bytes.subarray(start);
  return tlv(0x02, magnitude[0] & 0x80 ? Buffer.concat([Buffer.from([0]), magnitude]) : magnitude);
}
/** BIT STRING of whole bytes, or of a KeyUsage value (named bits: trailing zero bits dropped, X.690 §11.2.2). */
function bitString(bytes, unusedBits = 0) {
  return tlv(0x03, Buffer.from([unusedBits]), bytes);
}
function oid(dotted) {
  const [a, b, ...rest] = dotted.split('.').map(Number);
  const out = [40 * a + b];
  for (const arc of rest) {
    const groups = [arc & 0x7f];
    for (let v = Math.floor(arc / 128); v > 0; v = Math.floor(v / 128)) groups.unshift(0x80 | (v & 0x7f));
    out.push(...groups);
  }
  return tlv(0x06, Buffer.from(out));
}
/** RFC 5280 §4.1.2.5: UTCTime through 2049, GeneralizedTime after; whole seconds, Z. */
function time(seconds) {
  const iso = new Date(seconds * 1000).toISOString(); // 2026-07-01T12:00:00.000Z
  const digits = iso.slice(0, 19).replace(/[-:T]/g, '') + 'Z';
  const year = Number(iso.slice(0, 4));
  return year < 2050 ? tlv(0x17, Buffer.from(digits.slice(2))) : tlv(0x18, Buffer.from(digits));
}

const OID = {
  ecdsaWithSha384: '1.2.840.10045.4.3.3',
  commonName: '2.5.4.3',
  organization: '2.5.4.10',
  subjectKeyIdentifier: '2.5.29.14',
  keyUsage: '2.5.29.15',
  basicConstraints: '2.5.29.19',
  authorityKeyIdentifier: '2.5.29.35',
};
const ECDSA_SHA384 = sequence(oid(OID.ecdsaWithSha384)); // RFC 5758 §3.2: parameters absent
const name = (cn) => sequence(set(sequence(oid(OID.organization), utf8('edgeattest'))), set(sequence(oid(OID.commonName), utf8(cn))));
const extension = (id, critical, value) => sequence(oid(id), ...(critical ? [TRUE] : []), octetString(value));
// KeyUsage bits (RFC 5280 §4.2.1.3): digitalSignature = bit 0, keyCertSign = bit 5.
const KU_DIGITAL_SIGNATURE = bitString(Buffer.from([0x80]), 7);
const KU_KEY_CERT_SIGN = bitString(Buffer.from([0x04]), 2);

/** RFC 5280 §4.2.1.2 method (1): SHA-1 of the subjectPublicKey BIT STRING's bytes. */
function keyIdentifier(spkiDer) {
  // A P-384 SPKI is SEQUENCE { AlgorithmIdentifier, BIT STRING 00 || 97-byte point }: the point is its last 97 bytes.
  return createHash('sha1').update(spkiDer.subarray(spkiDer.length - 97)).digest();
}

function certificate({ issuer, subject, spki, notBefore, notAfter, extensions, signer }) {
  const serial = randomBytes(16);
  serial[0] = (serial[0] & 0x7f) | 0x40; // positive, 16 octets (RFC 5280 §4.1.2.2)
  const tbs = sequence(
    explicit(0, unsigned(Buffer.from([2]))), // v3
    unsigned(serial),
    ECDSA_SHA384,
    name(issuer),
    sequence(time(notBefore), time(notAfter)),
    name(subject),
    spki,
    explicit(3, sequence(...extensions)),
  );
  const signature = sign('sha384', tbs, { key: signer, dsaEncoding: 'der' });
  return sequence(tbs, ECDSA_SHA384, bitString(signature));
}

const pem = (der) => `-----BEGIN CERTIFICATE-----\n${der.toString('base64').replace(/.{1,64}/g, '$&\n')}-----END CERTIFICATE-----\n`;

/**
 * A new chain for `publicKey` (a node:crypto KeyObject, P-384) valid from `now` (Unix
 * seconds): PEM text, leaf first, then the self-signed root.
 */
export function createDevelopmentChain(publicKey, now) {
  const root = generateKeyPairSync('ec', { namedCurve: 'P-384' });
  const rootSpki = root.publicKey.export({ type: 'spki', format: 'der' });
  const leafSpki = publicKey.export({ type: 'spki', format: 'der' });
  const rootId = keyIdentifier(rootSpki);
  const validity = { notBefore: now - BACKDATE_SECONDS, notAfter: now + DEV_CHAIN_LIFETIME_SECONDS };
  const rootDer = certificate({
    issuer: ROOT_NAME,
    subject: ROOT_NAME,
    spki: rootSpki,
    ...validity,
    extensions: [
      extension(OID.basicConstraints, true, sequence(TRUE, unsigned(Buffer.from([0])))), // cA, pathLen 0
      extension(OID.keyUsage, true, KU_KEY_CERT_SIGN),
      extension(OID.subjectKeyIdentifier, false, octetString(rootId)),
    ],
    signer: root.privateKey,
  });
  const leafDer = certificate({
    issuer: ROOT_NAME,
    subject: LEAF_NAME,
    spki: leafSpki,
    ...validity,
    extensions: [
      extension(OID.basicConstraints, true, sequence()), // cA FALSE (the DEFAULT, so omitted)
      extension(OID.keyUsage, true, KU_DIGITAL_SIGNATURE),
      extension(OID.subjectKeyIdentifier, false, octetString(keyIdentifier(leafSpki))),
      extension(OID.authorityKeyIdentifier, false, sequence(tlv(0x80, rootId))), // [0] keyIdentifier
    ],
    signer: root.privateKey,
  });
  return pem(leafDer) + pem(rootDer);
}

/**
 * Why the chain in `text` cannot serve `publicKey` at `now` (Unix seconds), or null when it
 * can: exactly a leaf and its self-signed root, the leaf carrying this very key, both
 * signatures good, and more than a day of validity left for both.
 */
export function chainProblem(text, publicKey, now) {
  const blocks = text.match(/-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----/g) ?? [];
  if (blocks.length !== 2) return `holds ${blocks.length} certificates, not 2`;
  let leaf;
  let root;
  try {
    [leaf, root] = blocks.map((block) => new X509Certificate(block));
  } catch (error) {
    return `a certificate does not parse (${error.message})`;
  }
  const spki = (key) => key.export({ type: 'spki', format: 'der' });
  if (!spki(leaf.publicKey).equals(spki(publicKey))) return 'its leaf is for another key';
  if (!root.verify(root.publicKey) || !leaf.checkIssued(root) || !leaf.verify(root.publicKey)) {
    return 'the leaf is not issued by its self-signed root';
  }
  for (const cert of [leaf, root]) {
    const from = Date.parse(cert.validFrom) / 1000;
    const to = Date.parse(cert.validTo) / 1000;
    if (now < from) return `not valid before ${cert.validFrom}`;
    if (now >= to - DEV_CHAIN_RENEW_BEFORE_SECONDS) return `expires ${cert.validTo}`;
  }
  return null;
}

/**
 * The development chain for the key in `keyPem` (PKCS#8 PEM), kept in `path`: reused while
 * it belongs to the key and has more than a day left, otherwise (first start, the key was
 * replaced, expiry, a damaged file) made anew and saved.
 */
export function developmentCertificateChain(keyPem, { path, now = Math.floor(Date.now() / 1000), log = () => {} }) {
  const publicKey = createPublicKey(keyPem);
  const saved = existsSync(path) ? readFileSync(path, 'utf8') : null;
  if (saved !== null) {
    const problem = chainProblem(saved, publicKey, now);
    if (problem === null) return saved;
    log(`renewing the development certificate chain in ${path}: ${problem}`);
  }
  const text = createDevelopmentChain(publicKey, now);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text, { mode: 0o644 });
  if (saved === null) log(`created a development certificate chain in ${path}`);
  return text;
}
