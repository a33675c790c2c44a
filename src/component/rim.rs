//! `edgeattest:verifier/rim`: RIMs verified by the core's [`RimOptions`] (the JS `verifyRim`,
//! `prepareRim`), identified, opened from a RIM service envelope, named for a device
//! ([`RimIds`]) and compared with its evidence ([`compare_gpu`], [`compare_switch`]).

use alloc::string::String;
use alloc::vec::Vec;

use super::exports::edgeattest::verifier::rim::{
    GoldenMeasurement, Guest, GuestPendingRim, GuestVerifiedRim, OpaqueFloor,
    PendingRim as WitPending, RimCertChain as WitChain, RimComparison, RimDocument, RimEnvelope,
    RimIdentity, RimIds as WitIds, RimKind as WitKind, RimMeta, RimOptions as WitOptions,
    RuntimeEvidence as WitRuntime, VerifiedRim as WitVerified, VerifiedRimBorrow,
};
use super::exports::edgeattest::verifier::types::{ChainStatus, SignatureCheck};
use super::pending::Pending;
use super::runtime::{comparison_out, runtime_in};
use super::{checked_now, coded, invalid, json, Verifier, WitError};
use crate::attest::Arch;
use crate::rim::{
    self, compare_gpu, compare_switch, PendingRim, RimCertStatus, RimIds, RimKind, RimOptions,
    VerifiedRim,
};

/// The `verified-rim` resource.
pub(super) struct Verified(pub(super) VerifiedRim);

impl GuestVerifiedRim for Verified {
    fn trusted(&self) -> bool {
        self.0.is_trusted()
    }

    fn colloquial_version(&self) -> String {
        self.0.document().meta.colloquial_version.clone()
    }

    fn cert_chain(&self) -> WitChain {
        let chain = self.0.cert_chain();
        WitChain {
            status: chain_status(chain.status),
            expiration: chain.expiration.map(crate::time::UnixTime::as_secs),
            error_code: chain.error_code.map(Into::into),
            problem: chain.problem.clone(),
            subjects: chain.subjects.clone(),
        }
    }

    fn document(&self) -> RimDocument {
        let document = self.0.document();
        let meta = &document.meta;
        RimDocument {
            name: document.name.clone(),
            tag_id: document.tag_id.clone(),
            version: document.version.clone(),
            meta: RimMeta {
                colloquial_version: meta.colloquial_version.clone(),
                edition: meta.edition.clone(),
                product: meta.product.clone(),
                revision: meta.revision.clone(),
                firmware_manufacturer_id: meta.firmware_manufacturer_id.clone(),
                platform_model: meta.platform_model.clone(),
            },
            measurements: document
                .measurements
                .iter()
                .map(|m| GoldenMeasurement {
                    index: m.index,
                    active: m.active,
                    name: m.name.clone(),
                    // At most MAX_MEASUREMENT_SIZE (1 KiB).
                    size: u32::try_from(m.size).unwrap_or(u32::MAX),
                    alternatives: m.alternatives.clone(),
                })
                .collect(),
            opaque_floors: document
                .opaque_floors
                .iter()
                .map(|f| OpaqueFloor {
                    id: f.id,
                    index: f.index,
                    name: f.name.clone(),
                    active: f.active,
                    min_svn: f.min_svn,
                    include_in_result: f.include_in_result,
                })
                .collect(),
        }
    }

    fn to_json(&self) -> String {
        json(&self.0).unwrap_or_default()
    }
}

/// The `pending-rim` resource: digest checked, signature checks with the host.
pub(super) struct Prepared(Pending<PendingRim>);

impl GuestPendingRim for Prepared {
    fn signature_checks(&self) -> Result<Vec<SignatureCheck>, WitError> {
        self.0.checks()
    }

    fn finish(&self, verdicts: Vec<bool>) -> Result<WitVerified, WitError> {
        let verified = self.0.take()?.finish(&verdicts).map_err(|e| coded(&e))?;
        Ok(WitVerified::new(Verified(verified)))
    }
}

impl Guest for Verifier {
    type VerifiedRim = Verified;
    type PendingRim = Prepared;

    fn verify_rim(xml: Vec<u8>, options: WitOptions) -> Result<WitVerified, WitError> {
        let (read, now) = options_in(options)?;
        let rim = read.verify(&xml, now).map_err(|e| coded(&e))?;
        Ok(WitVerified::new(Verified(rim)))
    }

    fn prepare_rim(xml: Vec<u8>, options: WitOptions) -> Result<WitPending, WitError> {
        let (read, now) = options_in(options)?;
        let pending = read.prepare(&xml, now).map_err(|e| coded(&e))?;
        Ok(WitPending::new(Prepared(Pending::new(
            pending,
            "PendingRim",
        ))))
    }

    fn identify_rim(xml: Vec<u8>) -> Result<RimIdentity, WitError> {
        let identity = rim::identify_rim(&xml).map_err(|e| coded(&e))?;
        Ok(RimIdentity {
            kind: match identity.kind {
                RimKind::Driver => WitKind::Driver,
                RimKind::Firmware => WitKind::Firmware,
            },
            arch: identity.arch.map(|arch| arch.as_str().into()),
            product: identity.product,
            version: identity.version,
            name: identity.name,
        })
    }

    fn open_rim_envelope(body: Vec<u8>, expected_id: String) -> Result<RimEnvelope, WitError> {
        let envelope = rim::open_envelope(&body, &expected_id).map_err(|e| coded(&e))?;
        Ok(RimEnvelope {
            id: envelope.id,
            rim: envelope.rim,
            rim_format: envelope.rim_format,
            last_updated: envelope.last_updated,
            request_id: envelope.request_id,
            coev: envelope.coev,
        })
    }

    fn rim_ids_of(arch: String, evidence: WitRuntime) -> Result<WitIds, WitError> {
        let arch = Arch::parse(&arch).ok_or_else(|| invalid("arch", Arch::expected()))?;
        let ids = RimIds::of(arch, &runtime_in(evidence)?).map_err(|e| coded(&e))?;
        Ok(WitIds {
            driver: ids.driver,
            firmware: ids.firmware,
        })
    }

    fn compare_gpu_rims(
        driver: VerifiedRimBorrow<'_>,
        firmware: VerifiedRimBorrow<'_>,
        evidence: WitRuntime,
    ) -> Result<RimComparison, WitError> {
        let runtime = runtime_in(evidence)?;
        let (driver, firmware) = (driver.get::<Verified>(), firmware.get::<Verified>());
        let comparison = driver
            .0
            .compare(|d| firmware.0.compare(|f| compare_gpu(d, f, &runtime)))
            .map_err(|e| coded(&e))?;
        Ok(comparison_out(&comparison))
    }

    fn compare_switch_rim(
        firmware: VerifiedRimBorrow<'_>,
        evidence: WitRuntime,
    ) -> Result<RimComparison, WitError> {
        let runtime = runtime_in(evidence)?;
        let firmware = firmware.get::<Verified>();
        let comparison = firmware
            .0
            .compare(|f| compare_switch(f, &runtime))
            .map_err(|e| coded(&e))?;
        Ok(comparison_out(&comparison))
    }
}

/// The core's options and `now` (range-checked).
fn options_in(options: WitOptions) -> Result<(RimOptions, crate::time::UnixTime), WitError> {
    let now = checked_now(options.now)?;
    let read = RimOptions {
        trust_anchor_pem: options.trust_anchors,
        now: None,
    };
    Ok((read, now))
}

pub(super) fn chain_status(status: RimCertStatus) -> ChainStatus {
    match status {
        RimCertStatus::Valid => ChainStatus::Valid,
        RimCertStatus::Expired => ChainStatus::Expired,
        RimCertStatus::Invalid => ChainStatus::Invalid,
    }
}
