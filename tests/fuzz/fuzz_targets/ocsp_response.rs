#![no_main]
// Body: edgeattest_fuzz::harness::ocsp_response (shared with tests/hardening_fuzz_replay.rs).
libfuzzer_sys::fuzz_target!(|data: &[u8]| edgeattest_fuzz::harness::ocsp_response(data));
