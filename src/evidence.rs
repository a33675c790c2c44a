//! SPDM 1.1 GET_MEASUREMENTS transcripts: measurement blocks, opaque data, signature, nonce.
