//! The embedded trust anchors: NVIDIA's root certificates, as PEM text (`roots/`).

/// `CN=NVIDIA Device Identity CA, O=NVIDIA`: the root of every GPU and switch identity chain
/// (self-signed P-384, valid 2021-11-05 → 9999-12-31, SHA-256 fingerprint
/// `10:2B:F6:59:…:7B:48`).
pub const NVIDIA_DEVICE_IDENTITY_CA_PEM: &str = include_str!("roots/nvidia_device_identity_ca.pem");

/// `CN=NVIDIA CoRIM signing Root CA, O=NVIDIA, C=US`: the root of the RIM signing chains
/// (self-signed P-384, valid 2023-03-16 → 2053-03-08, SHA-256 fingerprint
/// `12:97:7B:51:…:F5:D1`).
pub const NVIDIA_RIM_ROOT_CA_PEM: &str = include_str!("roots/nvidia_rim_root_ca.pem");

/// `CN=NVIDIA CoRIM Root CA001, O=NVIDIA Corporation, C=US`: the root of the CoRIM signing
/// chains (self-signed P-384, valid 2026-01-01 → 2056-01-01, SHA-256 fingerprint
/// `35:E7:A9:47:…:3E:5E`), as NVIDIA's SDK 2.0 embeds it (`RIM_ROOT_CERT_CA001`). The XML
/// RIMs keep [`NVIDIA_RIM_ROOT_CA_PEM`].
pub const NVIDIA_CORIM_ROOT_CA001_PEM: &str = include_str!("roots/nvidia_corim_root_ca001.pem");
