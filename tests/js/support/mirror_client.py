"""An independent client of the verified mirror (tests/js/mirror.test.mjs): Python's urllib,
lxml (libxml2 C14N) and `cryptography` (OpenSSL), none of edgeattest's code.

    mirror_client.py rim ORIGIN ID RIM_ROOT_PEM
        GET ORIGIN/v1/rim/ID as NVIDIA's SDKs do; on 200 checks the envelope (the members
        NVIDIA's C++ SDK requires, strict base64, sha256 of the decoded document), the XML
        signature (enveloped, C14N, SHA-384 digest, ECDSA P-384 over SignedInfo with the
        first X509Certificate) and the chain the document carries, link by link, up to the
        pinned RIM root. Prints {"status", "members", "id", "signer", ...}.
    mirror_client.py ocsp ORIGIN CHAIN_PEM [--nonce]
        For each certificate of CHAIN_PEM and its issuer (the next one), POSTs a DER
        OCSPRequest (SHA-384 CertID; with --nonce a random nonce) to ORIGIN/ocsp and reads the
        answer with cryptography's ocsp module: its status, the certificate status, the
        serial, the echoed nonce, and whether its signature verifies with the responder
        certificate it carries, itself issued by the certificate's issuer.
"""
import base64
import binascii
import hashlib
import json
import os
import sys
import urllib.error
import urllib.request

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature
from cryptography.x509 import ocsp
from lxml import etree

DS = "{http://www.w3.org/2000/09/xmldsig#}"


def http(url, data=None, headers=None):
    request = urllib.request.Request(url, data=data, headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=20) as response:
            return response.status, dict(response.headers), response.read()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read()


def member_order(text):
    pairs = json.loads(text, object_pairs_hook=lambda items: items)
    return [name for name, _ in pairs]


def verify_rim(xml, root_pem):
    root = etree.fromstring(xml)
    signature = root.find(DS + "Signature")
    signed_info = signature.find(DS + "SignedInfo")
    method = signed_info.find(DS + "SignatureMethod").get("Algorithm")
    assert method.endswith("ecdsa-sha384"), method
    reference = signed_info.find(DS + "Reference")
    assert reference.get("URI") == "", "the reference is the whole document"
    transforms = [t.get("Algorithm") for t in reference.iter(DS + "Transform")]
    assert transforms[0].endswith("#enveloped-signature"), transforms
    assert reference.find(DS + "DigestMethod").get("Algorithm").endswith("#sha384")
    digest_value = base64.b64decode(reference.find(DS + "DigestValue").text)
    canonical_signed_info = etree.tostring(signed_info, method="c14n", with_comments=False)
    signature_value = base64.b64decode(signature.find(DS + "SignatureValue").text)
    certs = [x509.load_der_x509_certificate(base64.b64decode(c.text))
             for c in signature.iter(DS + "X509Certificate")]
    root.remove(signature)
    digest = hashlib.sha384(etree.tostring(root, method="c14n", with_comments=False)).digest()
    assert digest == digest_value, "the document's digest is not the signed one"
    assert len(signature_value) == 96, "raw r||s of P-384"
    r = int.from_bytes(signature_value[:48], "big")
    s = int.from_bytes(signature_value[48:], "big")
    certs[0].public_key().verify(encode_dss_signature(r, s), canonical_signed_info,
                                 ec.ECDSA(hashes.SHA384()))
    pinned = x509.load_pem_x509_certificate(root_pem)
    chain = list(certs)
    if chain[-1].fingerprint(hashes.SHA256()) != pinned.fingerprint(hashes.SHA256()):
        chain.append(pinned)
    for child, parent in zip(chain, chain[1:]):
        child.verify_directly_issued_by(parent)
    return certs[0].subject.rfc4514_string()


def rim(origin, rim_id, root_path):
    status, headers, body = http(f"{origin}/v1/rim/{rim_id}", headers={"accept": "application/json"})
    out = {"status": status, "contentType": headers.get("Content-Type") or headers.get("content-type")}
    if status != 200:
        out["body"] = json.loads(body)
        return out
    envelope = json.loads(body)
    out["members"] = member_order(body)
    for member in ("id", "rim", "sha256", "request_id"):
        assert isinstance(envelope.get(member), str), f"{member} is required by NVIDIA's SDK"
    assert envelope["id"] == rim_id
    document = base64.b64decode(envelope["rim"], validate=True)
    assert hashlib.sha256(document).hexdigest() == envelope["sha256"], "sha256"
    with open(root_path, "rb") as file:
        out["signer"] = verify_rim(document, file.read())
    out["id"] = envelope["id"]
    out["sha256"] = envelope["sha256"]
    out["rimFormat"] = envelope.get("rim_format")
    return out


def load_chain(path):
    with open(path, "rb") as file:
        return x509.load_pem_x509_certificates(file.read())


def ocsp_answers(origin, chain_path, with_nonce):
    chain = load_chain(chain_path)
    results = []
    for cert, issuer in zip(chain, chain[1:]):
        builder = ocsp.OCSPRequestBuilder().add_certificate(cert, issuer, hashes.SHA384())
        nonce = None
        if with_nonce:
            nonce = os.urandom(32)
            builder = builder.add_extension(x509.OCSPNonce(nonce), critical=False)
        request = builder.build().public_bytes(serialization.Encoding.DER)
        status, headers, body = http(f"{origin}/ocsp", data=request,
                                     headers={"content-type": "application/ocsp-request"})
        lower = {k.lower(): v for k, v in headers.items()}
        entry = {"serial": format(cert.serial_number, "x"), "status": status,
                 "contentType": lower.get("content-type"), "mirrored": lower.get("x-edgeattest-mirror"),
                 "sha256": hashlib.sha256(body).hexdigest()}
        if status == 200:
            answer = ocsp.load_der_ocsp_response(body)
            entry["responseStatus"] = answer.response_status.name
            if answer.response_status == ocsp.OCSPResponseStatus.SUCCESSFUL:
                entry["certStatus"] = answer.certificate_status.name
                entry["answersSerial"] = answer.serial_number == cert.serial_number
                try:
                    echoed = answer.extensions.get_extension_for_class(x509.OCSPNonce).value.nonce
                except x509.ExtensionNotFound:
                    echoed = None
                entry["nonceEchoed"] = None if echoed is None else echoed == nonce
                entry["nonce"] = None if echoed is None else binascii.hexlify(echoed).decode()
                signer = answer.certificates[0] if answer.certificates else issuer
                if signer is not issuer:
                    signer.verify_directly_issued_by(issuer)
                signer.public_key().verify(answer.signature, answer.tbs_response_bytes,
                                           ec.ECDSA(answer.signature_hash_algorithm))
                entry["signatureValid"] = True
        results.append(entry)
    return results


def main():
    kind = sys.argv[1]
    if kind == "rim":
        print(json.dumps(rim(sys.argv[2], sys.argv[3], sys.argv[4])))
    elif kind == "ocsp":
        print(json.dumps(ocsp_answers(sys.argv[2], sys.argv[3], "--nonce" in sys.argv[4:])))
    else:
        raise SystemExit(f"unknown command {kind}")


if __name__ == "__main__":
    main()
