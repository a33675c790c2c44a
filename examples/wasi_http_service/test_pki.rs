//! The edgeattest TEST PKI's collateral this component embeds (development only, trusted with
//! `EDGEATTEST_TEST_PKI=on` by the core's rule, `HostSettings::add_test_pki`): the files the
//! worker bundles (pkg-config/bundle-worker.mjs), for the Hopper 550.90.07 test device only, so
//! that the component stays within its size budget (pkg-config/size-report.mjs). Its samples
//! (www/samples/evidence.json, `testpki-hopper-…`) pass or fail offline as on the worker; the
//! other test devices' RIMs are not held (their samples fail with 5008, RIM not available).

use edgeattest::service::TestPki;

macro_rules! fixture {
    ($path:literal) => {
        include_str!(concat!("../../tests/fixtures/generated/", $path))
    };
}

pub(crate) const TEST_PKI: TestPki<'static> = TestPki {
    label: "edgeattest TEST PKI, not NVIDIA (its keys are public in tests/fixtures/generated/ocsp)",
    device_roots: fixture!("ocsp/root.pem"),
    rim_roots: fixture!("ocsp/rim_root.pem"),
    rims: &[
        (
            "NV_GPU_DRIVER_GH100_550.90.07",
            fixture!("ocsp/rims/NV_GPU_DRIVER_GH100_550.90.07.xml"),
        ),
        (
            "NV_GPU_VBIOS_1010_0200_882_96009F0001",
            fixture!("ocsp/rims/NV_GPU_VBIOS_1010_0200_882_96009F0001.xml"),
        ),
    ],
    ocsp_answers: fixture!("demo/ocsp_answers.json"),
};
