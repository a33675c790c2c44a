//! The reader against p384's own `from_pkcs8_der` / `from_pkcs8_pem`: keys of every shape
//! the format allows (each optional field present, absent and malformed), then every byte
//! change, insertion and truncation of a spread of them. Both must accept the same inputs
//! and yield the same key.

use alloc::vec;
use alloc::vec::Vec;

use p384::pkcs8::DecodePrivateKey as _;

use super::super::key::{PublicKey, SigningKey};

/// One DER value with the fewest length octets.
fn tlv(tag: &[u8], contents: &[u8]) -> Vec<u8> {
    let len = contents.len();
    let mut out = tag.to_vec();
    match len {
        0..=0x7f => out.push(len as u8),
        0x80..=0xff => out.extend([0x81, len as u8]),
        _ => out.extend([0x82, (len >> 8) as u8, len as u8]),
    }
    out.extend_from_slice(contents);
    out
}

fn cat(parts: &[&[u8]]) -> Vec<u8> {
    parts.concat()
}

/// A small deterministic generator (xorshift), so that a failure names its case.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    /// The first (well-formed) item half of the time, else any.
    fn pick<'a, T: AsRef<[u8]>>(&mut self, items: &'a [T]) -> &'a [u8] {
        let any = self.next();
        let at = if any & 1 == 0 {
            0
        } else {
            (any >> 1) % items.len() as u64
        };
        items[at as usize].as_ref()
    }
}

/// Same verdict and the same key from both decoders; returns whether it was accepted.
fn agree(der: &[u8]) -> bool {
    let ours = SigningKey::from_pkcs8_der(der)
        .ok()
        .map(|k| k.scalar_bytes());
    let peer = p384::ecdsa::SigningKey::from_pkcs8_der(der)
        .ok()
        .map(|k| <[u8; 48]>::from(k.to_bytes()));
    assert_eq!(ours, peer, "{}", hex::encode(der));
    ours.is_some()
}

fn key(seed: u8) -> SigningKey {
    let random: [u8; 96] = core::array::from_fn(|i| seed ^ (i as u8).wrapping_mul(29) ^ 0x5a);
    SigningKey::generate(&random).unwrap()
}

const ALG: &[u8] = &[
    0x30, 0x10, 0x06, 0x07, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x02, 0x01, 0x06, 0x05, 0x2b, 0x81, 0x04,
    0x00, 0x22,
];
const CURVE: &[u8] = &[0x06, 0x05, 0x2b, 0x81, 0x04, 0x00, 0x22];
const P256: &[u8] = &[0x06, 0x08, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x03, 0x01, 0x07];

/// PKCS#8 keys built from random choices for every field (valid and not).
fn shapes(count: usize) -> Vec<Vec<u8>> {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut out = Vec::new();
    for n in 0..count {
        let k = key(n as u8);
        let other = key(n as u8 ^ 0xff);
        let scalar = k.scalar_bytes();
        let public = k.public_key().to_sec1();
        let compressed = {
            let mut c = vec![2 + (public[96] & 1)];
            c.extend_from_slice(&public[1..49]);
            c
        };
        let lead = scalar.iter().take_while(|b| **b == 0).count();
        let scalars: [Vec<u8>; 7] = [
            scalar.to_vec(),
            scalar[lead..].to_vec(),
            cat(&[&[0], &scalar]),
            scalar[..24].to_vec(),
            scalar[..23].to_vec(),
            vec![0; 48],
            vec![0xff; 48],
        ];
        let params: [Vec<u8>; 6] = [
            vec![],
            tlv(&[0xa0], CURVE),
            tlv(&[0xa0], P256),
            tlv(&[0x80], CURVE),
            tlv(&[0xa0], &cat(&[CURVE, CURVE])),
            tlv(&[0xa0], &[]),
        ];
        let bits = |unused: u8, bytes: &[u8]| tlv(&[0x03], &cat(&[&[unused], bytes]));
        let publics: [Vec<u8>; 9] = [
            vec![],
            tlv(&[0xa1], &bits(0, &public)),
            tlv(&[0xa1], &bits(0, &compressed)),
            tlv(&[0xa1], &bits(0, &other.public_key().to_sec1())),
            tlv(&[0xa1], &bits(1, &public)),
            tlv(&[0xa1], &bits(0, &[0])),
            tlv(&[0x81], &cat(&[&[0], &public])),
            tlv(&[0xa1], &cat(&[&bits(0, &public), &[5, 0]])),
            tlv(&[0xa1], &tlv(&[0x04], &public)),
        ];
        let inner_versions: [&[u8]; 3] = [&[2, 1, 1], &[2, 1, 0], &[2, 2, 0, 1]];
        let trailers: [&[u8]; 3] = [&[], &[0xa2, 2, 5, 0], &[5, 0]];
        let ec = tlv(
            &[0x30],
            &cat(&[
                rng.pick(&inner_versions),
                &tlv(&[0x04], rng.pick(&scalars)),
                rng.pick(&params),
                rng.pick(&publics),
                rng.pick(&trailers),
            ]),
        );
        let versions: [&[u8]; 5] = [
            &[2, 1, 0],
            &[2, 1, 1],
            &[2, 1, 2],
            &[2, 2, 0, 0],
            &[2, 1, 0xff],
        ];
        let algorithms: [Vec<u8>; 5] = [
            ALG.to_vec(),
            tlv(&[0x30], &cat(&[&ALG[2..11], P256])),
            tlv(&[0x30], &ALG[2..11]),
            tlv(&[0x30], &cat(&[&ALG[2..11], &[5, 0]])),
            tlv(&[0x30], &cat(&[&ALG[2..], &[5, 0]])),
        ];
        let attributes: [Vec<u8>; 4] = [
            vec![],
            tlv(&[0xa0], &[]),
            tlv(&[0xa0], &tlv(&[0x30], &[5, 0])),
            tlv(&[0x80], &[]),
        ];
        let outer_publics: [Vec<u8>; 5] = [
            vec![],
            tlv(&[0x81], &cat(&[&[0], &public])),
            tlv(&[0x81], &[0]),
            tlv(&[0x81], &[1]),
            tlv(&[0xa1], &bits(0, &public)),
        ];
        let extensions: [Vec<u8>; 8] = [
            vec![],
            tlv(&[0xa2], &[2, 1, 0]),
            tlv(&[0xa2], &[]),
            tlv(&[0x82], &[0]),
            tlv(&[0xa2], &[2, 1, 0, 2, 1, 0]),
            tlv(&[0xbf, 0x1f], &[5, 0]),
            tlv(&[0xbf, 0x81, 0x00], &[5, 0]),
            cat(&[&tlv(&[0xa0], &[5, 0]), &tlv(&[0xbf, 0x80, 0x01], &[5, 0])]),
        ];
        let body = cat(&[
            rng.pick(&versions),
            rng.pick(&algorithms),
            &tlv(&[0x04], &ec),
            rng.pick(&attributes),
            rng.pick(&outer_publics),
            rng.pick(&extensions),
        ]);
        out.push(tlv(&[0x30], &body));
    }
    out
}

#[test]
fn every_shape_is_read_as_p384_reads_it() {
    let (mut accepted, mut refused) = (0, 0);
    for der in shapes(6000) {
        if agree(&der) {
            accepted += 1;
        } else {
            refused += 1;
        }
    }
    // Both verdicts are well represented (the choices are about half valid each).
    assert!(
        accepted >= 100 && refused >= 1000,
        "{accepted} accepted, {refused} refused"
    );
}

#[test]
fn every_byte_change_and_truncation_is_read_as_p384_reads_it() {
    let mut bases: Vec<Vec<u8>> = (0..4).map(|s| key(s).to_pkcs8_der()).collect();
    bases.extend(shapes(400).into_iter().filter(|d| agree(d)).take(12));
    let (mut accepted, mut refused) = (0, 0);
    let mut count = |ok: bool| if ok { accepted += 1 } else { refused += 1 };
    for base in &bases {
        for at in 0..base.len() {
            for flip in [0x01, 0x80, 0xff, 0x20, 0x1f] {
                let mut der = base.clone();
                der[at] ^= flip;
                count(agree(&der));
            }
            count(agree(&base[..at]));
            let mut longer = base.clone();
            longer.insert(at, 0);
            count(agree(&longer));
        }
        count(agree(&cat(&[base, &[0]])));
    }
    assert!(
        accepted >= 1000 && refused >= 5000,
        "{accepted} accepted, {refused} refused"
    );
}

#[test]
fn pem_is_read_as_p384_reads_it() {
    let der = key(1).to_pkcs8_der();
    let pem = key(1).to_pkcs8_pem();
    let cases = [
        pem.clone(),
        pem.replace('\n', "\r\n"),
        alloc::format!("  \n{pem}\n\n"),
        pem.replace("PRIVATE KEY", "EC PRIVATE KEY"),
        pem.replace("PRIVATE KEY", "PUBLIC KEY"),
        pem.replacen("PRIVATE KEY", "ENCRYPTED PRIVATE KEY", 1),
        pem.replacen('M', "*", 1),
        pem.replacen("\n", "", 2),
        pem.replace("-----END PRIVATE KEY-----\n", ""),
        key(2).public_key().to_spki_pem(),
        super::super::key_der::pem("PRIVATE KEY", &der[..der.len() - 1]),
        super::super::key_der::pem("PRIVATE KEY", &cat(&[&der, &[0]])),
        String::new(),
    ];
    for text in cases {
        let ours = SigningKey::from_pkcs8_pem(&text)
            .ok()
            .map(|k| k.scalar_bytes());
        let peer = p384::ecdsa::SigningKey::from_pkcs8_pem(text.trim())
            .ok()
            .map(|k| <[u8; 48]>::from(k.to_bytes()));
        assert_eq!(ours, peer, "{text:?}");
    }
}

use alloc::string::String;

/// Same verdict and key from [`PublicKey::from_spki_der`] and spki's decoder with this
/// crate's `TryFrom<SubjectPublicKeyInfoRef>`; returns whether it was accepted.
fn spki_agree(der: &[u8]) -> bool {
    use p384::pkcs8::DecodePublicKey as _;
    let ours = PublicKey::from_spki_der(der).ok();
    let peer = PublicKey::from_public_key_der(der).ok();
    assert_eq!(ours, peer, "{}", hex::encode(der));
    ours.is_some()
}

/// SPKIs built from random choices for every part (valid and not).
fn spki_shapes(count: usize) -> Vec<Vec<u8>> {
    let mut rng = Rng(0x2545_f491_4f6c_dd1d);
    (0..count)
        .map(|n| {
            let public = key(n as u8).public_key().to_sec1();
            let mut compressed = vec![2 + (public[96] & 1)];
            compressed.extend_from_slice(&public[1..49]);
            let mut off_curve = public.clone();
            off_curve[96] ^= 1;
            let points: [Vec<u8>; 6] = [
                public.clone(),
                compressed,
                off_curve,
                vec![0],
                public[..96].to_vec(),
                vec![],
            ];
            let unused: [&[u8]; 3] = [&[0], &[1], &[8]];
            let bits = tlv(&[0x03], &cat(&[rng.pick(&unused), rng.pick(&points)]));
            let algorithms: [Vec<u8>; 4] = [
                ALG.to_vec(),
                tlv(&[0x30], &cat(&[&ALG[2..11], P256])),
                tlv(&[0x30], &ALG[2..11]),
                tlv(&[0x30], &cat(&[&ALG[2..], &[5, 0]])),
            ];
            let trailers: [&[u8]; 3] = [&[], &[5, 0], &[0xa0, 0]];
            let body = cat(&[rng.pick(&algorithms), &bits, rng.pick(&trailers)]);
            let tags: [&[u8]; 2] = [&[0x30], &[0x31]];
            tlv(rng.pick(&tags), &body)
        })
        .collect()
}

#[test]
fn spki_is_read_as_spki_reads_it() {
    let (mut accepted, mut refused) = (0, 0);
    let mut count = |ok: bool| if ok { accepted += 1 } else { refused += 1 };
    for der in spki_shapes(3000) {
        count(spki_agree(&der));
    }
    for base in (0..6).map(|s| key(s).public_key().to_spki_der()) {
        for at in 0..base.len() {
            for flip in [0x01, 0x80, 0xff, 0x20, 0x1f] {
                let mut der = base.clone();
                der[at] ^= flip;
                count(spki_agree(&der));
            }
            count(spki_agree(&base[..at]));
            let mut longer = base.clone();
            longer.insert(at, 0);
            count(spki_agree(&longer));
        }
        count(spki_agree(&cat(&[&base, &[0]])));
    }
    assert!(
        accepted >= 300 && refused >= 3000,
        "{accepted} accepted, {refused} refused"
    );
    let pem = key(3).public_key().to_spki_pem();
    for text in [
        pem.clone(),
        pem.replace('\n', "\r\n"),
        pem.replace("PUBLIC KEY", "PRIVATE KEY"),
        pem.replacen('M', "*", 1),
        key(3).to_pkcs8_pem(),
        String::new(),
    ] {
        use p384::pkcs8::DecodePublicKey as _;
        let ours = PublicKey::from_spki_pem(&text).ok();
        let peer = PublicKey::from_public_key_pem(text.trim()).ok();
        assert_eq!(ours, peer, "{text:?}");
    }
}
