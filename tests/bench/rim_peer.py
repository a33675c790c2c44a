#!/usr/bin/env python3
"""Peer for tests/bench/rim.rs: the same RIM checks with lxml (libxml2 C14N) and
`cryptography` (OpenSSL ECDSA), i.e. the C stack NVIDIA's Python verifier builds on.
Measures parse + C14N + SHA-384 digest, and that plus the RIM signature and the 3 chain
links (4 ECDSA verifications), median per call over about one second.

    python3 tests/bench/rim_peer.py [--json]

--json: one JSON line instead of the table, {"driver RIM": {"prepare": µs, "verify": µs}, ...},
for rim.rs and rim_wasm.mjs, which run this peer between their own rounds."""
import base64
import hashlib
import json
import pathlib
import statistics
import sys
import time

from cryptography import x509
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature
from lxml import etree

DS = "{http://www.w3.org/2000/09/xmldsig#}"
ROOT = pathlib.Path(__file__).resolve().parents[1] / "fixtures" / "nvidia" / "rims" / "nvtrust"


def prepare(data):
    tree = etree.fromstring(data).getroottree()
    root = tree.getroot()
    sig = root.find(DS + "Signature")
    signed_info = etree.tostring(sig.find(DS + "SignedInfo"), method="c14n", with_comments=False)
    digest_value = sig.find(".//" + DS + "DigestValue").text
    certs = [base64.b64decode(c.text) for c in sig.iter(DS + "X509Certificate")]
    sig_value = base64.b64decode(sig.find(DS + "SignatureValue").text)
    root.remove(sig)
    digest = hashlib.sha384(etree.tostring(tree, method="c14n", with_comments=False)).digest()
    assert base64.b64encode(digest).decode() == digest_value
    return signed_info, sig_value, certs


def verify(data):
    signed_info, sig_value, certs = prepare(data)
    parsed = [x509.load_der_x509_certificate(c) for c in certs]
    r = int.from_bytes(sig_value[:48], "big")
    s = int.from_bytes(sig_value[48:], "big")
    parsed[0].public_key().verify(encode_dss_signature(r, s), signed_info, ec.ECDSA(hashes.SHA384()))
    for child, parent in zip(parsed, parsed[1:]):
        parent.public_key().verify(child.signature, child.tbs_certificate_bytes, ec.ECDSA(hashes.SHA384()))


def measure(fn, data):
    for _ in range(3):
        fn(data)
    samples = []
    start = time.perf_counter()
    while time.perf_counter() - start < 1.0 or len(samples) < 10:
        t = time.perf_counter()
        fn(data)
        samples.append(time.perf_counter() - t)
    return statistics.median(samples)


DOCS = (("driver RIM", "Driver_RIM_test_no_gpu.swidtag"),
        ("VBIOS RIM", "1010_0200_882_96005E0001_test_no_gpu.swidtag"))


def main():
    as_json = "--json" in sys.argv[1:]
    results = {}
    if not as_json:
        print("peer: Python lxml + cryptography (libxml2, OpenSSL), median per call")
    for label, name in DOCS:
        data = (ROOT / name).read_bytes()
        p = measure(prepare, data)
        v = measure(verify, data)
        results[label] = {"prepare": p * 1e6, "verify": v * 1e6}
        if not as_json:
            print(f"  {label:<11} {len(data):>6} B  parse+C14N+digest {p * 1e6:>8.1f} µs   full verify (4 ECDSA) {v * 1e6:>8.1f} µs")
    if as_json:
        print(json.dumps(results))
    return 0


if __name__ == "__main__":
    sys.exit(main())
