"""Independent check of an attestation result with PyJWT (tests/js/service.test.mjs).

Reads {"result": <detached EAT JSON value>, "jwks": <JWKS>, "nonce": <hex>} on stdin and
verifies every token with the JWKS key of its kid (ES384 only), recomputes each device
token's SHA-256 and compares it with the overall token's submods, and checks the nonce.
Prints {"ok": true, "devices": [...], "overall": <claims>} or exits non-zero with the reason.
"""
import hashlib
import json
import sys

import jwt


def main() -> None:
    data = json.load(sys.stdin)
    keys = {k["kid"]: jwt.PyJWK(k, algorithm="ES384") for k in data["jwks"]["keys"]}

    def verify(token: str) -> dict:
        kid = jwt.get_unverified_header(token)["kid"]
        return jwt.decode(token, keys[kid].key, algorithms=["ES384"], options={"require": ["exp", "iat", "nbf"]})

    (label, overall_token), devices = data["result"]
    assert label == "JWT", label
    overall = verify(overall_token)
    assert overall["eat_nonce"] == data["nonce"], "nonce"
    submods = overall["submods"]
    assert set(submods) == set(devices), "device set"
    checked = []
    for name, token in devices.items():
        claims = verify(token)
        digest = hashlib.sha256(token.encode("ascii")).hexdigest()
        assert submods[name] == ["DIGEST", ["SHA-256", digest]], f"digest of {name}"
        checked.append(name)
    print(json.dumps({"ok": True, "devices": sorted(checked), "overall": overall}))


if __name__ == "__main__":
    main()
