//! The eight roles of the key-management platform and the scopes each grants (spec §5,
//! "Roles" and "Role to scope mapping").

use core::fmt;

use serde::{Serialize, Serializer};

use super::scope::{Scope, ScopeSet};

/// A role assigned to a user on the key-management platform. Personal keys get the union
/// of the scopes of their user's roles.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[non_exhaustive]
pub enum Role {
    /// `lab_user`: standard user with full simulation access.
    LabUser,
    /// `lab_org_admin`: same permissions as `lab_user`, applied across the organization.
    LabOrgAdmin,
    /// `lab_instructor`: creates and manages training sessions.
    LabInstructor,
    /// `lab_demo_manager`: creates, edits and publishes marketplace demo content.
    LabDemoManager,
    /// `lab_image_uploader`: uploads and edits custom images.
    LabImageUploader,
    /// `lab_image_publisher`: uploads, edits and publishes images for public availability.
    LabImagePublisher,
    /// `lab_image_sharer`: creates cross-organization image sharing links.
    LabImageSharer,
    /// `lab_image_claimer`: claims images shared from another organization.
    LabImageClaimer,
}

/// `lab_user`'s scopes, shared by `lab_org_admin` ("Same as lab_user").
const LAB_USER: ScopeSet = ScopeSet::of(&[
    Scope::SimulationRead,
    Scope::SimulationCreate,
    Scope::SimulationEdit,
    Scope::SimulationDelete,
    Scope::SimulationStartStop,
    Scope::ImageRead,
    Scope::MarketplaceDemoWrite,
]);

impl Role {
    /// Every role, in the order of the spec's table.
    pub const ALL: [Self; 8] = [
        Self::LabUser,
        Self::LabOrgAdmin,
        Self::LabInstructor,
        Self::LabDemoManager,
        Self::LabImageUploader,
        Self::LabImagePublisher,
        Self::LabImageSharer,
        Self::LabImageClaimer,
    ];

    /// The wire name, e.g. `lab_user`.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::LabUser => "lab_user",
            Self::LabOrgAdmin => "lab_org_admin",
            Self::LabInstructor => "lab_instructor",
            Self::LabDemoManager => "lab_demo_manager",
            Self::LabImageUploader => "lab_image_uploader",
            Self::LabImagePublisher => "lab_image_publisher",
            Self::LabImageSharer => "lab_image_sharer",
            Self::LabImageClaimer => "lab_image_claimer",
        }
    }

    /// Parses a wire name (exact, case-sensitive).
    pub fn parse(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|role| role.as_str() == name)
    }

    /// The scopes the role grants: the spec's "Role to scope mapping" table, row by row.
    ///
    /// The org-wide reach of `lab_org_admin` is a property of the resources it may see, not
    /// of its scopes; the gateway authorizes by scope only, so it equals `lab_user` here.
    pub const fn scopes(self) -> ScopeSet {
        match self {
            Self::LabUser | Self::LabOrgAdmin => LAB_USER,
            Self::LabInstructor => ScopeSet::of(&[Scope::TrainingInstructor]),
            Self::LabDemoManager => {
                ScopeSet::of(&[Scope::MarketplaceDemoWrite, Scope::MarketplaceDemoPublish])
            }
            Self::LabImageUploader => ScopeSet::of(&[Scope::ImageRead, Scope::ImageWrite]),
            Self::LabImagePublisher => {
                ScopeSet::of(&[Scope::ImageRead, Scope::ImageWrite, Scope::ImagePublish])
            }
            Self::LabImageSharer => ScopeSet::of(&[Scope::ImageSharing]),
            Self::LabImageClaimer => ScopeSet::of(&[Scope::ImageClaiming]),
        }
    }
}

/// The union of the scopes of `roles`: a personal key's grant.
pub fn scopes_of_roles(roles: &[Role]) -> ScopeSet {
    roles
        .iter()
        .fold(ScopeSet::EMPTY, |set, role| set.union(role.scopes()))
}

impl fmt::Display for Role {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Serialize for Role {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}
