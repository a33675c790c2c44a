//! Device verification: chain, evidence signature, nonce, FWID and architecture, for one
//! device or a whole request, with every ECDSA verification collected as data and each
//! distinct one run once.

use alloc::boxed::Box;
use alloc::string::String;
use alloc::vec::Vec;

use super::error::{ParseError, VerifyError};
use super::opaque::FeatureFlag;
use super::spdm::Transcript;
use crate::attest::{
    Arch, DeviceKind, EvidenceEncoding, EvidenceProfile, FwidPolicy, FwidRule, FwidSource, Nonce,
};
use crate::chain::{
    parse_pem_chain, ChainOptions, ChainPlan, ChainStatus, RevocationStatus, TrustStore,
    VerifiedChain,
};
use crate::cmw::EvidenceForm;
use crate::crypto::{intern_check, Deferred, SignatureCheck};
use crate::time::UnixTime;
use crate::x509::{Cert, CertPosition, ChainError};

/// The first opaque data version (tag 34) whose evidence carries the feature flag.
const MIN_OPAQUE_DATA_VERSION_FOR_MODE: u16 = 1;

/// One device's input: the raw transcript and its PEM chain (leaf first).
#[derive(Clone, Copy, Debug)]
pub struct DeviceInput<'a> {
    /// The SPDM GET_MEASUREMENTS transcript bytes (decoded from the request's encoding).
    pub evidence: &'a [u8],
    /// The certificate chain as PEM text, leaf first.
    pub certificate_pem: &'a str,
}

/// What the devices of one request are verified against.
#[derive(Clone, Debug)]
pub struct VerifyContext<'a> {
    /// The requested architecture.
    pub arch: Arch,
    /// The caller's nonce.
    pub nonce: Nonce,
    /// Unix seconds.
    pub now: UnixTime,
    /// The anchors of the device chains ([`TrustStore::nvidia_device_identity`] by default).
    pub trust_store: &'a TrustStore,
    /// The chain profile (time reported, not enforced, by default).
    pub chain_options: ChainOptions,
    /// What evidence that could carry an FWID but does not gets (default: as NVIDIA's
    /// verifiers, passed with a warning).
    pub fwid_policy: FwidPolicy,
}

/// The FWID binding between evidence and leaf certificate.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum FwidCheck {
    /// Opaque tag 20 equals the FWID of the leaf's DICE extension.
    Matched,
    /// Firmware that may report an FWID did not (Hopper firmware from before FWID
    /// reporting): the check passes, as in NVIDIA's verifiers, and every report and token
    /// says so; the evidence is still bound to the leaf by the signature.
    /// [`FwidPolicy::Require`] fails such a device instead.
    NotInEvidence,
    /// The evidence format has no FWID (switches, Blackwell FSP): nothing to compare.
    NotApplicable,
}

/// A device whose evidence verified: the proof type the claims and the RIM comparison
/// consume. Only [`verify_evidence`] and [`BatchPlan`] build one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VerifiedEvidence {
    arch: Arch,
    profile: EvidenceProfile,
    transcript: Transcript,
    chain: VerifiedChain,
    fwid: FwidCheck,
    driver_version: Option<String>,
    vbios_version: Option<String>,
    form: EvidenceForm,
}

impl VerifiedEvidence {
    /// The form the evidence came in: the transcript itself, or inside a JSON or CBOR CMW.
    pub fn evidence_form(&self) -> EvidenceForm {
        self.form
    }

    /// The architecture (checked against the chain).
    pub fn arch(&self) -> Arch {
        self.arch
    }

    /// The firmware that produced the evidence, as the chain names it.
    pub fn profile(&self) -> EvidenceProfile {
        self.profile
    }

    /// The parsed transcript: request, blocks, opaque data, signature.
    pub fn transcript(&self) -> &Transcript {
        &self.transcript
    }

    /// The validated chain.
    pub fn chain(&self) -> &VerifiedChain {
        &self.chain
    }

    /// `…-attestation-report-parsed`: always true for a verified device.
    pub fn report_parsed(&self) -> bool {
        true
    }

    /// `…-attestation-report-nonce-match`: always true for a verified device.
    pub fn nonce_match(&self) -> bool {
        true
    }

    /// `…-attestation-report-signature-verified`: always true for a verified device.
    pub fn signature_verified(&self) -> bool {
        true
    }

    /// `…-arch-check`: always true for a verified device.
    pub fn arch_check(&self) -> bool {
        true
    }

    /// `…-attestation-report-cert-chain-fwid-match`.
    pub fn fwid(&self) -> FwidCheck {
        self.fwid
    }

    /// `x-nvidia-cert-status` of the device chain.
    pub fn chain_status(&self) -> ChainStatus {
        self.chain.status()
    }

    /// `x-nvidia-cert-expiration-date`.
    pub fn chain_expiration(&self) -> String {
        self.chain.earliest_not_after_iso()
    }

    /// `x-nvidia-cert-ocsp-status`: not checked.
    pub fn ocsp_status(&self) -> RevocationStatus {
        self.chain.ocsp_status()
    }

    /// `ueid`: the leaf serial in decimal.
    pub fn ueid(&self) -> String {
        self.chain.ueid()
    }

    /// `hwmodel`, as NVIDIA's SDK writes it (`GH100 A01 GSP BROM`).
    pub fn hwmodel(&self) -> Option<&str> {
        self.chain.hwmodel()
    }

    /// Driver version (opaque tag 3), GPUs.
    pub fn driver_version(&self) -> Option<&str> {
        self.driver_version.as_deref()
    }

    /// VBIOS or switch BIOS version (opaque tag 6), e.g. `96.00.9F.00.01`.
    pub fn vbios_version(&self) -> Option<&str> {
        self.vbios_version.as_deref()
    }

    /// The GPU's mode (opaque tag 36, the feature flag): `None` for switches, for evidence
    /// without the tag, and for opaque data older than version 1, which predates the flag
    /// (NVIDIA's SDK reads it from that version on). Verification validated both tags.
    pub fn mode(&self) -> Option<FeatureFlag> {
        let opaque = &self.transcript.response.opaque;
        let versioned = opaque
            .opaque_data_version()
            .ok()
            .flatten()
            .is_some_and(|version| version >= MIN_OPAQUE_DATA_VERSION_FOR_MODE);
        match self.arch.device_kind() {
            DeviceKind::Gpu if versioned => opaque.feature_flag().ok().flatten(),
            _ => None,
        }
    }

    /// PDIs of the switches a GPU is linked to (GPU opaque tag 22), as stored; `None` for
    /// switches and for GPUs that report none. Verification validated the tag, so its
    /// decoding cannot fail here.
    pub fn switch_pdis(&self) -> Option<Vec<[u8; 8]>> {
        match self.arch.device_kind() {
            DeviceKind::Gpu => self.transcript.response.opaque.switch_pdis().ok().flatten(),
            DeviceKind::Switch => None,
        }
    }
}

impl EvidenceProfile {
    /// The profile a verified chain names, from the words of its `hwmodel`: the chip (the
    /// architecture table's) and the engine.
    pub fn of_chain(chain: &VerifiedChain) -> Option<Self> {
        Self::of_hwmodel(chain.hwmodel()?)
    }
}

/// The architecture a chain's `hwmodel` names (`GH100…`, `GB100…`, `LS_10…`): the
/// architecture table's chips ([`Arch::of_chip`]).
pub fn arch_of_chain(chain: &VerifiedChain) -> Option<Arch> {
    Arch::of_chip(chain.hwmodel_chip()?)
}

/// The FWID the leaf certificate carries where its chip's row says
/// ([`crate::attest::ChipRow::fwid_source`]).
fn certificate_fwid(chain: &VerifiedChain, source: FwidSource) -> Option<Vec<u8>> {
    match source {
        FwidSource::Dice => chain.fwid_dice(),
        FwidSource::TcbInfo => chain.fwid_tcb_info(),
    }
}

/// Verifies one device with the software backend.
///
/// # Errors
/// The first failed check, in the order: transcript structure, chain, chain signatures,
/// evidence signature, nonce, architecture, opaque values, FWID.
pub fn verify_evidence(
    device: DeviceInput<'_>,
    context: &VerifyContext<'_>,
) -> Result<VerifiedEvidence, VerifyError> {
    BatchPlan::new(&[device], context)
        .verify()
        .into_iter()
        .next()
        .unwrap_or(Err(VerifyError::Chain(ChainError::Empty)))
}

/// A device between preparation and signature verdicts.
#[derive(Clone, Debug)]
struct Prepared {
    transcript: Transcript,
    chain: ChainPlan,
    /// Index into the deduplicated checks of each chain link, then of the evidence.
    chain_checks: Vec<usize>,
    evidence_check: usize,
}

/// The devices of one request, prepared; their signature checks deduplicated (a link shared
/// by several devices — the intermediate CAs of one node — is verified once).
#[derive(Clone, Debug)]
pub struct BatchPlan {
    arch: Arch,
    nonce: Nonce,
    fwid_policy: FwidPolicy,
    devices: Vec<Result<Prepared, VerifyError>>,
    checks: Vec<SignatureCheck>,
    /// Each device's input form, in device order (absent: plain).
    forms: Vec<EvidenceForm>,
}

impl BatchPlan {
    /// How many devices the plan holds (before any signature is checked).
    pub(crate) fn device_count(&self) -> usize {
        self.devices.len()
    }

    /// Parses every device and builds its chain path; collects the signature checks. The
    /// certificates are decoded through the process-wide cache (`ChainPlan::new`): the CA
    /// certificates every device chain shares were most of a batch's preparation.
    pub fn new(devices: &[DeviceInput<'_>], context: &VerifyContext<'_>) -> Self {
        Self::with_chains(devices, context, |ders| {
            ChainPlan::new(
                ders,
                context.trust_store,
                context.now,
                &context.chain_options,
            )
        })
    }

    /// [`Self::new`] with the chain certificates decoded by `parse` (see
    /// `ChainPlan::with_parser`).
    pub(crate) fn with_parser(
        devices: &[DeviceInput<'_>],
        context: &VerifyContext<'_>,
        mut parse: impl FnMut(&[u8], CertPosition) -> Result<alloc::sync::Arc<Cert>, ChainError>,
    ) -> Self {
        Self::with_chains(devices, context, |ders| {
            ChainPlan::with_parser(
                ders,
                context.trust_store,
                context.now,
                &context.chain_options,
                &mut parse,
            )
        })
    }

    /// The batch with each device's path built by `chain` from its DER certificates.
    fn with_chains(
        devices: &[DeviceInput<'_>],
        context: &VerifyContext<'_>,
        mut chain: impl FnMut(&[Vec<u8>]) -> Result<ChainPlan, ChainError>,
    ) -> Self {
        let mut checks: Vec<SignatureCheck> = Vec::new();
        let mut intern = |check: SignatureCheck| intern_check(&mut checks, &check);
        let prepared = devices
            .iter()
            .map(|device| {
                let transcript = Transcript::parse(device.evidence)?;
                let ders = parse_pem_chain(device.certificate_pem)?;
                let chain = chain(&ders)?;
                let chain_checks = chain
                    .signature_checks()
                    .iter()
                    .map(|c| intern(c.clone()))
                    .collect();
                let evidence_check = intern(SignatureCheck {
                    public_key_sec1: chain.leaf_public_key_sec1().to_vec(),
                    message: transcript.signed_bytes().to_vec(),
                    signature: transcript.response.signature.to_vec(),
                });
                Ok(Prepared {
                    transcript,
                    chain,
                    chain_checks,
                    evidence_check,
                })
            })
            .collect();
        Self {
            arch: context.arch,
            nonce: context.nonce,
            fwid_policy: context.fwid_policy,
            devices: prepared,
            checks,
            forms: Vec::new(),
        }
    }

    /// The plan with each device's input form (in device order) for its report; devices
    /// beyond `forms` are plain.
    #[must_use]
    pub fn with_forms(mut self, forms: Vec<EvidenceForm>) -> Self {
        self.forms = forms;
        self
    }

    /// The distinct signature checks of all devices.
    pub fn signature_checks(&self) -> &[SignatureCheck] {
        &self.checks
    }

    /// Completes every device with one verdict per [`Self::signature_checks`] entry.
    ///
    /// # Errors
    /// [`ChainError::VerdictCount`] (as [`VerifyError::Chain`]) when the verdicts do not
    /// match the checks.
    pub fn finish(
        self,
        verdicts: &[bool],
    ) -> Result<Vec<Result<VerifiedEvidence, VerifyError>>, VerifyError> {
        Ok(self
            .finish_detailed(verdicts)?
            .into_iter()
            .map(|device| device.map_err(|failed| failed.error))
            .collect())
    }

    /// As [`Self::finish`], keeping for each failed device the certificate path when it
    /// validated before the failure (a service still reports the chain, `hwmodel` and
    /// `ueid` of a device whose evidence signature or nonce is wrong).
    ///
    /// # Errors
    /// As [`Self::finish`].
    pub fn finish_detailed(
        self,
        verdicts: &[bool],
    ) -> Result<Vec<Result<VerifiedEvidence, FailedEvidence>>, VerifyError> {
        if verdicts.len() != self.checks.len() {
            return Err(VerifyError::Chain(ChainError::VerdictCount {
                expected: self.checks.len(),
                got: verdicts.len(),
            }));
        }
        let (arch, nonce, fwid_policy) = (self.arch, self.nonce, self.fwid_policy);
        let forms = self.forms;
        Ok(self
            .devices
            .into_iter()
            .enumerate()
            .map(|(i, device)| match device {
                Ok(device) => {
                    complete(device, verdicts, arch, &nonce, fwid_policy).map(|mut verified| {
                        verified.form = forms.get(i).copied().unwrap_or_default();
                        verified
                    })
                }
                Err(error) => Err(FailedEvidence { error, chain: None }),
            })
            .collect())
    }

    /// Runs the checks with the software backend and completes every device.
    pub fn verify(self) -> Vec<Result<VerifiedEvidence, VerifyError>> {
        let verdicts = crate::crypto::software_verdicts(&self.checks);
        let count = self.devices.len();
        self.finish(&verdicts)
            .unwrap_or_else(|err| (0..count).map(|_| Err(err.clone())).collect())
    }
}

/// A device whose evidence did not verify: why, and its certificate path when that was
/// built and its signatures checked before the failure.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FailedEvidence {
    /// The first check that failed.
    pub error: VerifyError,
    /// The validated path (its status may still be expired), absent when the chain itself
    /// failed or was never reached.
    pub chain: Option<Box<VerifiedChain>>,
}

fn complete(
    device: Prepared,
    verdicts: &[bool],
    arch: Arch,
    nonce: &Nonce,
    fwid_policy: FwidPolicy,
) -> Result<VerifiedEvidence, FailedEvidence> {
    let verdict = |i: usize| verdicts.get(i).copied().unwrap_or(false);
    let link_verdicts: Vec<bool> = device.chain_checks.iter().map(|&i| verdict(i)).collect();
    let chain = device
        .chain
        .finish(&link_verdicts)
        .map_err(|error| FailedEvidence {
            error: error.into(),
            chain: None,
        })?;
    let evidence_verified = verdict(device.evidence_check);
    match checked(
        device.transcript,
        &chain,
        evidence_verified,
        arch,
        nonce,
        fwid_policy,
    ) {
        Ok(checked) => Ok(VerifiedEvidence {
            arch,
            profile: checked.profile,
            transcript: checked.transcript,
            chain,
            fwid: checked.fwid,
            driver_version: checked.driver_version,
            vbios_version: checked.vbios_version,
            form: EvidenceForm::Plain,
        }),
        Err(error) => Err(FailedEvidence {
            error,
            chain: Some(Box::new(chain)),
        }),
    }
}

/// What the checks after the certificate path establish.
struct Checked {
    profile: EvidenceProfile,
    transcript: Transcript,
    fwid: FwidCheck,
    driver_version: Option<String>,
    vbios_version: Option<String>,
}

/// The checks after the path, in the real service's order: evidence signature, nonce,
/// architecture (and the firmware profile the chain names), opaque data, FWID, then what the
/// profile requires of the opaque data.
fn checked(
    transcript: Transcript,
    chain: &VerifiedChain,
    evidence_verified: bool,
    arch: Arch,
    nonce: &Nonce,
    fwid_policy: FwidPolicy,
) -> Result<Checked, VerifyError> {
    if !evidence_verified {
        return Err(VerifyError::Signature);
    }
    if transcript.request.nonce != *nonce.as_bytes() {
        return Err(VerifyError::NonceMismatch);
    }
    if arch_of_chain(chain) != Some(arch) {
        return Err(VerifyError::ArchMismatch {
            found: chain.hwmodel_chip().map(String::from),
        });
    }
    let profile = EvidenceProfile::of_chain(chain).ok_or_else(|| VerifyError::UnknownProfile {
        hwmodel: chain.hwmodel().map(String::from),
    })?;
    let kind = arch.device_kind();
    let opaque = &transcript.response.opaque;
    opaque.validate(kind)?;
    let fwid = match (opaque.fwid()?, profile.fwid_rule()) {
        (Some(evidence_fwid), _) => {
            let source = chain
                .hwmodel_chip()
                .and_then(|chip| arch.profile().chip(chip))
                .map(|chip| chip.fwid_source);
            let cert_fwid = source
                .and_then(|source| certificate_fwid(chain, source))
                .ok_or(VerifyError::FwidMissingInCertificate)?;
            if cert_fwid.as_slice() != evidence_fwid {
                return Err(VerifyError::FwidMismatch);
            }
            FwidCheck::Matched
        }
        (None, FwidRule::NotCarried) => FwidCheck::NotApplicable,
        (None, FwidRule::Optional) if fwid_policy == FwidPolicy::AsNvidia => {
            FwidCheck::NotInEvidence
        }
        (None, _) => return Err(VerifyError::FwidMissingInEvidence),
    };
    let driver_version = match kind {
        DeviceKind::Gpu => opaque.driver_version()?,
        DeviceKind::Switch => None,
    };
    // The profile, not the tag's presence, decides whether a driver RIM is compared: GSP
    // evidence without a driver version would otherwise be judged by its VBIOS RIM alone.
    if profile.requires_driver_version() && driver_version.as_deref().is_none_or(str::is_empty) {
        return Err(VerifyError::DriverVersionMissing);
    }
    let vbios_version = opaque.vbios_version(kind)?;
    Ok(Checked {
        profile,
        transcript,
        fwid,
        driver_version,
        vbios_version,
    })
}

/// Decodes generation-1 evidence text: base64 of the hex text of the transcript (ASCII
/// whitespace around the hex is ignored, as SDK files end in a newline). The core's one rule
/// ([`crate::attest::decode_evidence_text`]); its error says which encoding the text is in.
///
/// # Errors
/// [`ParseError::Encoding`].
pub fn decode_generation1(text: &str) -> Result<Vec<u8>, ParseError> {
    decode_as(text, EvidenceEncoding::Base64Hex)
}

/// Decodes generation-2 evidence text: base64 of the transcript bytes.
///
/// # Errors
/// [`ParseError::Encoding`].
pub fn decode_generation2(text: &str) -> Result<Vec<u8>, ParseError> {
    decode_as(text, EvidenceEncoding::Base64)
}

fn decode_as(text: &str, encoding: EvidenceEncoding) -> Result<Vec<u8>, ParseError> {
    crate::attest::decode_evidence_text(text, Some(encoding), "evidence")
        .map_err(|_| ParseError::Encoding)
}

impl Deferred for BatchPlan {
    /// One outcome per device, in input order.
    type Output = Vec<Result<VerifiedEvidence, VerifyError>>;
    type Error = VerifyError;

    fn signature_checks(&self) -> &[SignatureCheck] {
        BatchPlan::signature_checks(self)
    }

    fn finish(self, verdicts: &[bool]) -> Result<Self::Output, VerifyError> {
        BatchPlan::finish(self, verdicts)
    }
}
