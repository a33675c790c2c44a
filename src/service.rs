//! The attestation service as an HTTP-shaped router (spec: attestation-service.md).
