#![no_main]
// Body: edgeattest_fuzz::harness::cbor_cose (shared with tests/it/hardening/fuzz_replay.rs).
libfuzzer_sys::fuzz_target!(|data: &[u8]| edgeattest_fuzz::harness::cbor_cose(data));
