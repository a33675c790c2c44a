#!/usr/bin/env python3
"""Writes the seed corpora tests/fuzz/corpus/<target>/ from tests/fixtures (and the fuzz PKI
in tests/fuzz/keys). Run from anywhere; outputs are committed. Input layouts are those of
tests/fuzz/src/harness.rs: a selector byte where a target has one, documents separated by
SEP. Seeds are named after the fixture they come from.
"""
import base64
import hashlib
import json
import pathlib
import re
import shutil

HERE = pathlib.Path(__file__).parent
FIX = HERE.parent / "fixtures"
CORPUS = HERE / "corpus"
SEP = b"\n%%\n"
# Indexes into Endpoint::ALL (src/attest/endpoint.rs).
SWITCH_V4, GPU_V4, SWITCH_V3, GPU_V3, SWITCH_V2, GPU_V2, GPU_V1 = range(7)
VERAISON_CWT = "d28444a1013822a058b9bf190109781d7461673a696574662e6f72672c323032363a726174732f656172233034061a6a18a5001903eca200782868747470733a2f2f6769746875622e636f6d2f656467656174746573742f6564676561747465737401706564676561747465737420302e322e3019010aa1654750552d30bf1903e8021903e9bf0002010202020402ff0a48931d8dd0add203acff1903e8020a5820931d8dd0add203ac0102030405060708090a0b0c0d0e0f101112131415161718ff58605772c7356a57dc55ce1cfb4e1494146675b4c2a54ccd57bbf10a5e5be53173f1fa33e4c2e05e399b6b084f6f911b98f2747f29b6f7a671958da38f9a3b9152ab54c20228daa288a7e720f31bd85aa26a8183dd90f580b68a5c01a7c9f89d6641"
CX7_CORIM = "2QH02QH20oRYJ6MBOCIDdGFwcGxpY2F0aW9uL3JpbStjYm9yCEuhAKEAZk5WSURJQaBZAgSjAHVDb25uZWN0WC03XzI4LjM5LjQwODIBgVkBcdkB+qIBoQB4HTE1YjMxMDIxMTViMzAwMzMwMC0yOC4zOS40MDgyBKEAgYKhAKEBZk5WSURJQYWiAAEBoQTZAjBEAAAAAaIAAgGhAoGCCFhA+Pbqb6A7sI/P+yi9TNpmpvRq2y663lImANDUpG/fPrwl4XwtejknxYHksQrRlzhZsGTFGpggtB97+nKfIBJCqKIAAwGhAoGCCFhABZivjjixqOC5Y7vbRAW4/tThRa+G0D+qAFjM38dZCesxwRfIGeAqdMOraiM+nZsPKXbPDKqoiVk1Myv4XpBvKKIABAGhAoGCCFhAUs8XLrAtyhkdQF5Z+hd5cbzmR5AvAKxUcLG5mPKpvN73yu/r6d9+hD6ZhqhZwRQh4WK6YtkAVhmsBpMNjeGGt6IABQGhAoGCCFhAasLtx3Usohqois5AevVNWPEJirPftdBjju7Leo92GlkDMjv0fb7tLY097SKVGZQM31GbhTdvtJKtX96m/EhhnQKBogDYIHhJaHR0cHM6Ly9kb2NzLm5kaXMubnZpZGlhLmNvbS9jZXJ0cy9jb3JpbS9udmlkaWEtY29yaW0tc2lnbmVyLWN4Ny1pZC0yLnBlbQGCAVggtQc94Np0/NmSqwaRMVxenH0jnVne/+1CvATlaonzn1pYYOCxC2S5wwewgk0ji4B+oNkTA1XakCk1BWCto8Fg5ra1EKh3evwp9Z9gcESE6pCX4L5d0AmPT4sqkP5O+hUaWUlIWv9M/1Dk/UKd6HghSJXOTeJo4wAMcQXQ8lXU0pDCNA=="
N931 = "931d8dd0add203ac3d8b4fbde75e115278eefcdceac5b87671a748f32364dfcb"


# Targets written in this run: each one's directory is emptied before its first seed, and
# the corpora of targets seeded by hand (service_exchange) are left as they are.
_cleared = set()


def seed(target, name, data):
    d = CORPUS / target
    if target not in _cleared:
        _cleared.add(target)
        if d.exists():
            shutil.rmtree(d)
    d.mkdir(parents=True, exist_ok=True)
    if isinstance(data, str):
        data = data.encode()
    (d / name).write_bytes(data)


def pem_to_ders(text):
    return [base64.b64decode("".join(b.split()))
            for b in re.findall(r"-----BEGIN CERTIFICATE-----(.*?)-----END CERTIFICATE-----", text, re.S)]


def b64(data):
    return base64.b64encode(data if isinstance(data, bytes) else data.encode()).decode()


def b64url_decode(text):
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def main():
    ev = FIX / "nvidia/evidence"
    pairs = []  # (name, arch selector, report bytes, chain pem)
    for report in sorted(ev.glob("*/*_report.hex")) + sorted(ev.glob("*/*transcript*.hex")):
        raw = bytes.fromhex(report.read_text().strip())
        stem = report.name.replace(".hex", "")
        seed("evidence_transcript", stem, raw)
        chain = report.with_name(report.name.replace("_report.hex", "_certchain.pem").replace("_report_trailing_byte.hex", "_certchain.pem"))
        sel = 2 if "switch" in str(report) else (1 if "blackwell" in str(report) else 0)
        if chain.exists():
            pairs.append((stem, sel, raw, chain.read_text()))
    for stem, sel, raw, pem in pairs:
        seed("evidence_verify", stem, bytes([sel]) + raw + SEP + pem.encode())
        seed("evidence_signed", stem, bytes([sel]) + raw)
        seed("evidence_decode", stem + "_gen1", b64(raw.hex() + "\n"))
        seed("evidence_decode", stem + "_gen2", b64(raw))
    seed("evidence_signed", "fuzz_pki_hopper", bytes([0]) + bytes.fromhex((FIX / "generated/evidence_test_leaf.hex").read_text().strip()))

    pems = sorted(ev.glob("*/*.pem")) + sorted((FIX / "generated").glob("*.pem")) + sorted((FIX / "nvidia/roots").glob("*.pem")) + sorted((HERE / "keys").glob("*.pem"))
    for p in pems:
        seed("chain_pem", p.parent.name + "_" + p.stem, p.read_text())
        seed("chain_der", p.parent.name + "_" + p.stem, SEP.join(pem_to_ders(p.read_text())))

    # Tokens, results, JWKS and claims from the recorded NRAS exchanges.
    nras = sorted((FIX / "nvidia/nras").glob("*/*.json"))
    for p in nras:
        text = p.read_text()
        if p.name.endswith("_jwks.json"):
            seed("token_jwks", p.stem, text)
            for i, key in enumerate(json.loads(text)["keys"][:2]):
                seed("token_jwks", f"{p.stem}_key{i}", json.dumps(key))
        if p.name.endswith("_response.json") or p.name.endswith("_detached_eat.json"):
            seed("token_result", p.stem, text)
        if p.name.endswith("_request.json"):
            seed("attest_request", p.stem, bytes([GPU_V3]) + text.encode())
        tokens = sorted(set(re.findall(r"eyJ[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+", text)))
        for i, tok in enumerate(tokens[:3]):
            seed("token_jwt", f"{p.stem}_{i}", tok)
            h, c, _ = tok.split(".")
            seed("token_claims", f"{p.stem}_{i}", bytes([i * 37 % 256]) + b64url_decode(h) + SEP + b64url_decode(c))
    for p in sorted((FIX / "vectors/eat").glob("*.json")) + sorted((FIX / "nvidia/claims-samples/nvtrust").glob("*.json"))[:6]:
        seed("token_claims", "claims_" + p.stem, bytes([0]) + b'{"kid":"fuzz-kid","alg":"ES384"}' + SEP + p.read_bytes())
    wjwk = json.loads((FIX / "vectors/wycheproof/json_web_key_test.json").read_text())
    n = 0
    for group in wjwk.get("testGroups", []):
        for test in group.get("tests", []):
            for field in ("private", "public", "jwk", "key"):
                if isinstance(test.get(field), dict) and n < 12:
                    seed("token_jwks", f"wycheproof_{n}", json.dumps({"keys": [test[field]]}))
                    n += 1

    # Attest request bodies for every endpoint, from the real Hopper and LS10 evidence.
    gpu = next(x for x in pairs if x[0].startswith("nvtrust_hopper_550"))
    sw = next(x for x in pairs if x[0].startswith("nvat_ls10_96.10.55"))
    for name, ep, (stem, sel, raw, pem) in [("gpu_v1", GPU_V1, gpu), ("gpu_v2", GPU_V2, gpu), ("gpu_v3", GPU_V3, gpu),
                                            ("gpu_v4", GPU_V4, gpu), ("switch_v2", SWITCH_V2, sw),
                                            ("switch_v3", SWITCH_V3, sw), ("switch_v4", SWITCH_V4, sw)]:
        arch = "LS10" if "switch" in name else "HOPPER"
        if name == "gpu_v1":
            body = {"nonce": N931, "arch": arch, "evidence": b64(raw.hex()), "certificate": b64(pem)}
        elif name.endswith("v2"):
            body = {"nonce": N931, "evidences": [{"evidence": b64(raw.hex()), "certificate": b64(pem)}]}
            if name.startswith("gpu"):
                body = {"nonce": N931, "arch": arch, **{"evidences": body["evidences"]}}
        else:
            body = {"nonce": N931, "arch": arch, "evidence_list": [{"evidence": b64(raw), "certificate": b64(pem)}]}
            if name.endswith("v4"):
                body["claims_version"] = "3.0"
        seed("attest_request", name, bytes([ep]) + json.dumps(body, separators=(",", ":")).encode())
    for p in sorted((ev / "serialized").glob("*.json")):
        if p.stat().st_size < 40000:
            seed("attest_request", "serialized_" + p.stem, bytes([GPU_V3]) + p.read_bytes())

    # RIMs and their service envelopes.
    rims = sorted((FIX / "nvidia/rims").glob("*/*"))
    for p in rims:
        if p.suffix in (".xml", ".swidtag"):
            seed("rim_verify", p.stem, p.read_bytes())
    for sel, name in [(0, "NV_GPU_DRIVER_GH100_550.144.03.xml"), (1, "switchVBIOSRim_NV_SWITCH_BIOS_5612_0002_890_9610550001.xml")]:
        xml = (FIX / "nvidia/rims/nvat" / name).read_bytes()
        ids = ["NV_GPU_DRIVER_GH100_550.144.03", "NV_SWITCH_BIOS_5612_0002_890_9610550001"]
        env = {"id": ids[sel], "rim": b64(xml), "sha256": hashlib.sha256(xml).hexdigest(), "rim_format": "TCG",
               "last_updated": "2025-01-01T00:00:00Z", "request_id": "r1"}
        seed("rim_envelope", name, bytes([sel]) + json.dumps(env).encode())
    seed("rim_envelope", "small", bytes([2]) + b'{"id":"","rim":"PGEvPg==","sha256":null}')

    # OCSP responses: the static responses of the OCSP tests (good, revoked, hold, unknown,
    # delegated and CA-signed, and every refused shape).
    for p in sorted((FIX / "generated/ocsp/responses").glob("*.der")):
        seed("ocsp_response", p.stem, p.read_bytes())


    # Gateway requests: routes of the access table with and without a real dev key.
    routes = sorted(set(re.findall(r'row\((\w+), "(/api/v3/[^"]*)"', (HERE.parent.parent / "src/access/endpoint.rs").read_text())))
    for i, (method, path) in enumerate(routes[::3]):
        path = path.replace("{id}", "3f2a")
        seed("access_gateway", f"route_{i}", bytes([1 + 2 * (i % 8)]) + method.encode() + SEP + path.encode() + b"?page=2" + SEP + b"Bearer eak_per_x")
    seed("access_gateway", "options", bytes([0]) + b"OPTIONS" + SEP + b"/api/v3/simulations/" + SEP)
    seed("access_gateway", "query_token", bytes([0]) + b"GET" + SEP + b"/api/v3/simulations/?access_token=abc" + SEP + b"Bearer abc")
    seed("access_gateway", "malformed", bytes([0]) + b"GET" + SEP + b"/api/v3/../simulations/%2e%2e/" + SEP + b"Basic dXNlcjpwYXNz, Bearer x")
    # Key stores (the format of tests/it/access/keys.rs).
    digest = "ab" * 32
    store = {"keys": [
        {"id": "alice", "type": "personal", "digest": digest, "roles": ["lab_user", "lab_image_sharer"], "services": ["simulation"], "expiresAt": 2000000000},
        {"id": "ci.nightly", "type": "service", "digest": "cd" * 32, "scopes": ["lab:image_read", "lab:simulation_read"], "services": ["simulation", "other"], "revokedAt": 1900000000}]}
    seed("access_keystore", "two_keys", json.dumps(store))
    seed("access_keystore", "empty", '{"keys":[]}')
    # Deprecation-checked bodies: every attribute name the registry knows.
    names = sorted(set(re.findall(r'"([a-z][A-Za-z_]{2,})"', (HERE.parent.parent / "src/deprecation/registry.rs").read_text())))
    for i in range(0, 24, 3):
        body = {n: ("1" if j % 2 else True) for j, n in enumerate(names[i:i + 6])}
        seed("deprecation_request", f"attrs_{i}", bytes([i]) + json.dumps(body).encode())
    seed("deprecation_request", "query", bytes([5]) + b"page=1&ordering=name&search=x")
    # Whole service requests: every attest body, health, JWKS, preflight, oversize claims.
    methods = {"POST": 0, "GET": 1, "HEAD": 2, "OPTIONS": 3, "PUT": 4}
    paths = {GPU_V1: "/v1/attest/gpu", GPU_V2: "/v2/attest/gpu", GPU_V3: "/v3/attest/gpu", GPU_V4: "/v4/attest/gpu",
             SWITCH_V2: "/v2/attest/switch", SWITCH_V3: "/v3/attest/switch", SWITCH_V4: "/v4/attest/switch"}
    for f in sorted((CORPUS / "attest_request").iterdir()):
        if f.name.startswith(("gpu_", "switch_")):
            data = f.read_bytes()
            seed("service_request", f.name, bytes([0]) + paths[data[0]].encode() + SEP + b"content-type: application/json" + SEP + data[1:])
    for name, m, path, headers in [("health", "GET", "/health", ""), ("jwks", "GET", "/.well-known/jwks.json", ""),
                                   ("info", "HEAD", "/", ""), ("preflight", "OPTIONS", "/v4/attest/gpu", "origin: https://a.example"),
                                   ("put", "PUT", "/v4/attest/gpu", ""), ("oversize", "POST", "/v4/attest/gpu", "content-length: 99999999999"),
                                   ("text", "POST", "/v3/attest/switch", "content-type: text/plain")]:
        seed("service_request", name, bytes([methods[m]]) + path.encode() + SEP + headers.encode() + SEP + b"{}")


    # List queries and upstream rows, per schema (src/listing/endpoints.rs, in SCHEMAS order).
    src = (HERE.parent.parent / "src/listing/endpoints.rs").read_text()
    shared = {m[0]: (m[1], m[2]) for m in re.findall(r'const (\w+): Column = col\(\s*"(\w+)",\s*T::(\w+)', src)}
    blocks = {}
    for name, body in re.findall(r'const (\w+): &\[Column\] = &\[(.*?)\n\];', src, re.S):
        cols = []
        for item in re.finditer(r'col\(\s*"(\w+)",\s*T::(\w+)|\b([A-Z_]{3,})\b(?=,)', body):
            if item.group(1):
                cols.append((item.group(1), item.group(2)))
            elif item.group(3) in shared:
                cols.append(shared[item.group(3)])
        blocks[name] = cols
    order = re.findall(r'schema\(\s*"[^"]+",\s*"[^"]+",\s*(\w+),?\s*\)', src[src.index("static SCHEMAS"):])
    value = {"Integer": lambda i: i, "Number": lambda i: i + 0.25, "String": lambda i: f"s{i}x", "StringArray": lambda i: [f"a{i}", "b"]}
    ops = {"Integer": "eq]3", "Number": "neq]1.25", "String": "con]1", "StringArray": "sw]a"}
    for sel, name in enumerate(order):
        cols = blocks.get(name, [])
        if not cols:
            continue
        c0, t0 = cols[0]
        c1, t1 = cols[-1]
        for j, q in enumerate(["", "page_number=2&rpp=10", f"sorting=-{c1}&rpp=5", f"filter={c0}[{ops[t0]}",
                               f"filter={c1}[{ops[t1]}&filter={c0}[neq]7&sorting={c0}", "rpp=1001", "page_number=0", "filter=%zz", f"filter={c0}[eqm][1,2,3]"]):
            seed("listing_query", f"{name.lower()}_{j}", bytes([sel]) + q.encode())
        rows = [{c: value[t](i) for c, t in cols} for i in range(1, 4)]
        seed("listing_table", name.lower(), bytes([sel]) + json.dumps(rows).encode() + SEP + f"sorting=-{c0}&rpp=2".encode())

    # CBOR and COSE_Sign1: a CWT EAR signed by Veraison's `ear` 0.6.0 (indefinite maps), the
    # real CX7 CoRIM the RIM service published (tags 500/502 around a COSE_Sign1), the FSP
    # CoMID of NVIDIA's SDK test data, RFC 8949's examples and the edges of the reader.
    seed("cbor_cose", "veraison_ear04_cwt", bytes.fromhex(VERAISON_CWT))
    seed("cbor_cose", "cx7_corim", base64.b64decode(CX7_CORIM))
    seed("cbor_cose", "cx7_corim_sign1", base64.b64decode(CX7_CORIM)[6:])
    for name, text in [("rfc_array", "8301820203820405"), ("rfc_indefinite", "bf61610161629f0203ffff"),
                       ("rfc_tag", "c074323031332d30332d32315432303a30343a30305a"), ("neg_max", "3bffffffffffffffff"),
                       ("half", "f93c00"), ("dup", "a201020103"), ("deep", "81" * 20 + "00"),
                       ("huge_len", "9bffffffffffffffff01"), ("indef_bytes", "5f42010243030405ff"),
                       ("sign1_empty_protected", "d28440a0f6" + "5860" + "00" * 96)]:
        seed("cbor_cose", name, bytes.fromhex(text))

    # Strict JSON: every small JSON fixture.
    for p in sorted(FIX.rglob("*.json")):
        if p.stat().st_size < 20000:
            seed("json_parse", p.parent.name + "_" + p.stem, p.read_bytes())
    for name, text in [("dup", '{"a":1,"a":2}'), ("deep", "[" * 40 + "]" * 40), ("nested_dup", '{"x":[{"k":1,"k":1}]}')]:
        seed("json_parse", name, text)

    # Policies: NVIDIA's examples, and shapes at the edges of their budgets.
    for p in sorted((FIX / "nvidia/policies/nvtrust").glob("*.json")):
        seed("policy_json", p.name, p.read_bytes())
    edges = {
        "empty_rule_object": {"version": "3.0", "authorization-rules": {"type": "JWT", "overall-claims": {}, "detached-claims": {"x-nvidia-gpu-driver-rim-cert-chain": {}}}},
        "scalar_under_object": {"version": "4.0", "authorization-rules": {"type": "JWT", "overall-claims": {"iss": {"a": {"b": 1}}}, "detached-claims": {"measres": [1, "x", None, {"k": True}]}}},
        "v1_flat": {"version": "1.0", "authorization-rules": {"x-nvidia-gpu-driver-version": "535.104.05"}},
        "unknown_version": {"version": "5.0", "authorization-rules": {}},
    }
    for name, doc in edges.items():
        seed("policy_json", name, json.dumps(doc))


if __name__ == "__main__":
    main()
