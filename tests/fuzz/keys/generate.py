#!/usr/bin/env python3
"""Key material for the signed fuzz targets (tests/fuzz/src/harness.rs: evidence_signed).

A throw-away test PKI whose leaf private key is committed, so that the fuzzer can re-sign
every mutated transcript and reach the checks that come after the evidence signature
(nonce, architecture, opaque values, FWID). Nothing here is trusted anywhere but in the fuzz
harness and its replay test. Run once from this folder; outputs are committed:

    python3 generate.py    # needs the `cryptography` package (tested with 50.0.2)

The certificate helpers are those of tests/fixtures/generated/generate.py.
"""
import importlib.util
import pathlib

from cryptography.hazmat.primitives.asymmetric import ec

HERE = pathlib.Path(__file__).parent
spec = importlib.util.spec_from_file_location("gen", HERE.parent.parent / "fixtures/generated/generate.py")
gen = importlib.util.module_from_spec(spec)
spec.loader.exec_module(gen)


def main():
    report = bytes.fromhex(gen.REPORT.read_text().strip())
    fwid = gen.transcript_fwid(report)
    root_k, ica_k, brom_k, leaf_k = gen.key(), gen.key(), gen.key(), gen.key()
    root = gen.cert(gen.name("Fuzz Device Identity CA"), root_k, gen.name("Fuzz Device Identity CA"), root_k, ca=True)
    ica = gen.cert(gen.name("Fuzz GH100 Provisioner ICA"), ica_k, root.subject, root_k, ca=True)
    brom = gen.cert(gen.name("GH100 A01 GSP BROM", "Fuzz Devices"), brom_k, ica.subject, ica_k, ca=True)
    leaf = gen.cert(gen.name("GH100 A01 GSP FMC LF", "Fuzz Devices"), leaf_k, brom.subject, brom_k, ca=False,
                    extra=[gen.dice_extension(leaf_k.public_key(), fwid)])
    (HERE / "fuzz_root.pem").write_text(gen.pem(root))
    (HERE / "fuzz_chain.pem").write_text(gen.pem(leaf, brom, ica, root))
    scalar = leaf_k.private_numbers().private_value.to_bytes(48, "big")
    (HERE / "fuzz_leaf_key.hex").write_text(scalar.hex() + "\n")


if __name__ == "__main__":
    main()
