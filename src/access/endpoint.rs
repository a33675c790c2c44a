//! The endpoint → scope table of the simulation service, and route matching.
//!
//! The spec names one endpoint (`GET /api/v3/simulations/`) and says the scope each endpoint
//! requires "is implied only by the scope descriptions" (§5). This table is that
//! implication, made explicit for every route of the eight resources: each row says whether
//! the scope description states it ([`Basis::Direct`]) or it is inferred
//! ([`Basis::Inferred`]), and why. The route list follows the public SDK of the product the
//! spec describes.
//!
//! Rules the table keeps, each checked by tests:
//! - every (method, path pattern) has exactly one row, and every row requires at least one
//!   scope: nothing is allowed by default, and a path or method without a row is refused;
//! - a literal segment beats `{id}` at the same position, so `/simulations/nodes/` is never
//!   read as the simulation with id `nodes`;
//! - `HEAD` is authorized as `GET`.
//!
//! The generated table, with the reasons, is [`super::endpoint_table`].

use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;

use serde::ser::SerializeMap;
use serde::{Serialize, Serializer};

use super::path::{CanonicalPath, Method};
use super::scope::{Scope, ScopeSet};

/// The path prefix of every route: the API version segment (spec §9).
pub const API_PREFIX: &str = "/api/v3";

/// The resource kind a route belongs to (spec §2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Resource {
    /// A simulation (with its ZTP script and lifecycle actions).
    Simulation,
    /// A node of a simulation (with its instructions).
    Node,
    /// An interface of a node (with its links).
    Interface,
    /// A service (port forward) on an interface.
    Service,
    /// An image.
    Image,
    /// An image share link.
    ImageShareLink,
    /// A marketplace demo (with its tags).
    MarketplaceDemo,
    /// A training session.
    TrainingSession,
}

impl Resource {
    /// The name used in exports, e.g. `image share link`.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Simulation => "simulation",
            Self::Node => "node",
            Self::Interface => "interface",
            Self::Service => "service",
            Self::Image => "image",
            Self::ImageShareLink => "image share link",
            Self::MarketplaceDemo => "marketplace demo",
            Self::TrainingSession => "training session",
        }
    }
}

/// The scopes a route requires.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Requirement {
    /// Every listed scope.
    AllOf(ScopeSet),
    /// At least one of the listed scopes.
    AnyOf(ScopeSet),
}

impl Requirement {
    /// The listed scopes.
    pub const fn scopes(self) -> ScopeSet {
        match self {
            Self::AllOf(set) | Self::AnyOf(set) => set,
        }
    }

    /// Whether `granted` satisfies the requirement. An empty requirement is never met.
    pub const fn is_met(self, granted: ScopeSet) -> bool {
        match self {
            Self::AllOf(set) => !set.is_empty() && granted.is_superset(set),
            Self::AnyOf(set) => granted.intersects(set),
        }
    }

    /// `all_of` or `any_of`, as in error bodies.
    pub const fn mode(self) -> &'static str {
        match self {
            Self::AllOf(_) => "all_of",
            Self::AnyOf(_) => "any_of",
        }
    }
}

/// `{"all_of": [...]}` or `{"any_of": [...]}`.
impl Serialize for Requirement {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(1))?;
        map.serialize_entry(self.mode(), &self.scopes())?;
        map.end()
    }
}

/// Whether a row follows from a scope's description or is an inference.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Basis {
    /// The scope description names the operation.
    Direct,
    /// Inferred; the row's rationale says why.
    Inferred,
}

impl Basis {
    /// `direct` or `inferred`.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Direct => "direct",
            Self::Inferred => "inferred",
        }
    }
}

/// One row: a method and a path pattern, and what they require.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Route {
    method: Method,
    pattern: &'static str,
    resource: Resource,
    requirement: Requirement,
    basis: Basis,
    rationale: &'static str,
}

impl Route {
    /// The method (never `HEAD`, `OPTIONS` or `Other`).
    pub const fn method(&self) -> Method {
        self.method
    }

    /// The full path pattern, `{id}` standing for one path segment, e.g.
    /// `/api/v3/simulations/{id}/`.
    pub const fn pattern(&self) -> &'static str {
        self.pattern
    }

    /// The resource kind.
    pub const fn resource(&self) -> Resource {
        self.resource
    }

    /// The scopes required.
    pub const fn requirement(&self) -> Requirement {
        self.requirement
    }

    /// Direct or inferred.
    pub const fn basis(&self) -> Basis {
        self.basis
    }

    /// Why the row requires what it requires.
    pub const fn rationale(&self) -> &'static str {
        self.rationale
    }

    /// Whether the pattern matches the segments of a canonical path.
    fn matches(&self, segments: &[&str]) -> bool {
        let mut pattern = pattern_segments(self.pattern);
        let mut count = 0;
        for segment in segments {
            match pattern.next() {
                Some("{id}") => {}
                Some(literal) if literal == *segment => {}
                _ => return false,
            }
            count += 1;
        }
        pattern.next().is_none() && count == segments.len()
    }

    /// One flag per segment: literal or `{id}`. Compared lexicographically, the larger is
    /// the more specific pattern.
    fn specificity(&self) -> impl Iterator<Item = bool> + '_ {
        pattern_segments(self.pattern).map(|segment| segment != "{id}")
    }
}

fn pattern_segments(pattern: &str) -> impl Iterator<Item = &str> {
    pattern.trim_matches('/').split('/')
}

impl Serialize for Route {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(6))?;
        map.serialize_entry("method", self.method.as_str())?;
        map.serialize_entry("path", self.pattern)?;
        map.serialize_entry("resource", self.resource.as_str())?;
        map.serialize_entry("requires", &self.requirement)?;
        map.serialize_entry("basis", self.basis.as_str())?;
        map.serialize_entry("rationale", self.rationale)?;
        map.end()
    }
}

impl fmt::Display for Route {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.method, self.pattern)
    }
}

/// What a method and path resolve to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RouteMatch {
    /// The row for this method and path.
    Found(&'static Route),
    /// The path has rows, but not for this method.
    MethodNotAllowed {
        /// The most specific matching pattern.
        pattern: &'static str,
        /// The methods it has rows for (plus `HEAD` where `GET` is allowed), sorted.
        allowed: Vec<Method>,
    },
    /// No row's pattern matches the path.
    NotFound,
}

/// Resolves `method` and `path` against [`ROUTES`]: the most specific matching pattern
/// decides, then the method.
pub fn match_route(method: Method, path: &CanonicalPath) -> RouteMatch {
    let segments = path.segments();
    let mut best: Option<&'static Route> = None;
    for route in ROUTES {
        if !route.matches(&segments) {
            continue;
        }
        best = match best {
            Some(current) if !route.specificity().gt(current.specificity()) => Some(current),
            _ => Some(route),
        };
    }
    let Some(best) = best else {
        return RouteMatch::NotFound;
    };
    let wanted = if method == Method::Head {
        Method::Get
    } else {
        method
    };
    let rows = ROUTES.iter().filter(|route| route.pattern == best.pattern);
    if let Some(route) = rows.clone().find(|route| route.method == wanted) {
        return RouteMatch::Found(route);
    }
    let mut allowed: Vec<Method> = rows.map(|route| route.method).collect();
    if allowed.contains(&Method::Get) {
        allowed.push(Method::Head);
    }
    allowed.sort();
    allowed.dedup();
    RouteMatch::MethodNotAllowed {
        pattern: best.pattern,
        allowed,
    }
}

/// The table as a JSON array of `{method, path, resource, requires, basis, rationale}`.
pub fn route_table_json() -> String {
    serde_json::to_string_pretty(ROUTES).unwrap_or_default()
}

/// The table as a Markdown table (the text of [`super::endpoint_table`], checked by a test).
pub fn route_table_markdown() -> String {
    use core::fmt::Write;
    let mut out = String::from(
        "| Method | Path | Resource | Requires | Basis | Rationale |\n|---|---|---|---|---|---|\n",
    );
    for route in ROUTES {
        let scopes = route.requirement.scopes().names().join(", ");
        let requires = match route.requirement {
            Requirement::AllOf(set) if set.len() > 1 => alloc::format!("all of {scopes}"),
            Requirement::AnyOf(set) if set.len() > 1 => alloc::format!("any of {scopes}"),
            _ => scopes,
        };
        let _ = writeln!(
            out,
            "| {} | `{}` | {} | {} | {} | {} |",
            route.method,
            route.pattern,
            route.resource.as_str(),
            requires,
            route.basis.as_str(),
            route.rationale
        );
    }
    out
}

const fn all(scopes: &[Scope]) -> Requirement {
    Requirement::AllOf(ScopeSet::of(scopes))
}

const fn any(scopes: &[Scope]) -> Requirement {
    Requirement::AnyOf(ScopeSet::of(scopes))
}

const fn row(
    method: Method,
    pattern: &'static str,
    resource: Resource,
    requirement: Requirement,
    basis: Basis,
    rationale: &'static str,
) -> Route {
    Route {
        method,
        pattern,
        resource,
        requirement,
        basis,
        rationale,
    }
}

use Basis::{Direct as D, Inferred as I};
use Method::{Delete as DELETE, Get as GET, Patch as PATCH, Post as POST};
use Resource as R;
use Scope as S;

const SIM_READ: Requirement = all(&[S::SimulationRead]);
const SIM_CREATE: Requirement = all(&[S::SimulationCreate]);
const SIM_EDIT: Requirement = all(&[S::SimulationEdit]);
const SIM_DELETE: Requirement = all(&[S::SimulationDelete]);
const SIM_POWER: Requirement = all(&[S::SimulationStartStop]);
const IMG_READ: Requirement = all(&[S::ImageRead]);
const IMG_WRITE: Requirement = all(&[S::ImageWrite]);
const IMG_PUBLISH: Requirement = all(&[S::ImagePublish]);
const IMG_SHARE: Requirement = all(&[S::ImageSharing]);
const IMG_CLAIM: Requirement = all(&[S::ImageClaiming]);
const SHARE_READ: Requirement = any(&[S::ImageSharing, S::ImageClaiming]);
const DEMO_READ: Requirement = any(&[
    S::SimulationRead,
    S::MarketplaceDemoWrite,
    S::MarketplaceDemoPublish,
]);
const DEMO_WRITE: Requirement = all(&[S::MarketplaceDemoWrite]);
const DEMO_PUBLISH: Requirement = all(&[S::MarketplaceDemoPublish]);
const TRAINING: Requirement = all(&[S::TrainingInstructor]);

const TOPOLOGY: &str = "Changes the topology ('Modify simulation properties and topology'); \
                        simulation_create and simulation_delete are kept for whole simulations.";
const PROPERTY: &str = "Changes a simulation property ('Modify simulation properties').";
const POWER: &str = "A power or lifecycle action, like start and stop, not an edit of the \
                     definition.";
const DEMO_BROWSE: &str = "No read scope for demos exists. A demo is simulation content \
                           offered for launch: whoever may read simulations may browse it, and \
                           whoever writes or publishes demos must see them.";
const SHARE_BROWSE: &str = "No read scope for share links exists. Sharers see the links they \
                            created, claimers the links offered to them; image_read does not \
                            suffice, as a link is a capability.";
const TRAINING_READ: &str = "No other scope concerns trainings; reading them is part of \
                             managing them.";

/// Every route of the simulation service, grouped by resource.
#[rustfmt::skip]
pub static ROUTES: &[Route] = &[
    // Simulation
    row(GET, "/api/v3/simulations/", R::Simulation, SIM_READ, D,
        "The spec's own example (§4); 'Read simulation details'."),
    row(POST, "/api/v3/simulations/", R::Simulation, SIM_CREATE, D,
        "'Create simulations by … UI'."),
    row(GET, "/api/v3/simulations/{id}/", R::Simulation, SIM_READ, D,
        "'Read simulation details'."),
    row(PATCH, "/api/v3/simulations/{id}/", R::Simulation, SIM_EDIT, D,
        "'Modify simulation properties'."),
    row(DELETE, "/api/v3/simulations/{id}/", R::Simulation, SIM_DELETE, D,
        "'Delete simulations'."),
    row(POST, "/api/v3/simulations/import/", R::Simulation, SIM_CREATE, D,
        "'Create simulations by import'."),
    row(POST, "/api/v3/simulations/parse/", R::Simulation, SIM_CREATE, I,
        "Validates a topology for import and creates nothing; grouped with import, so a key \
         that cannot import cannot probe the importer."),
    row(POST, "/api/v3/simulations/clone/", R::Simulation,
        all(&[S::SimulationRead, S::SimulationCreate]), I,
        "'Create simulations by … clone' names create; a clone also discloses the source, so \
         read is required too, else a create-only service key could read any simulation by \
         cloning it."),
    row(GET, "/api/v3/simulations/{id}/export/", R::Simulation, SIM_READ, I,
        "An export is the simulation's details as a file."),
    row(PATCH, "/api/v3/simulations/{id}/start/", R::Simulation, SIM_POWER, D,
        "'Start and stop simulations'."),
    row(PATCH, "/api/v3/simulations/{id}/shutdown/", R::Simulation, SIM_POWER, D,
        "'Start and stop simulations'."),
    row(PATCH, "/api/v3/simulations/{id}/rebuild/", R::Simulation, SIM_POWER, I, POWER),
    row(PATCH, "/api/v3/simulations/{id}/enable-auto-oob/", R::Simulation, SIM_EDIT, I, PROPERTY),
    row(PATCH, "/api/v3/simulations/{id}/disable-auto-oob/", R::Simulation, SIM_EDIT, I, PROPERTY),
    row(PATCH, "/api/v3/simulations/{id}/enable-auto-netq/", R::Simulation, SIM_EDIT, I, PROPERTY),
    row(PATCH, "/api/v3/simulations/{id}/disable-auto-netq/", R::Simulation, SIM_EDIT, I, PROPERTY),
    row(POST, "/api/v3/simulations/{id}/nodes/bulk-assign/", R::Simulation, SIM_EDIT, I,
        TOPOLOGY),
    row(POST, "/api/v3/simulations/{id}/nodes/bulk-reset/", R::Simulation, SIM_POWER, I, POWER),
    row(POST, "/api/v3/simulations/{id}/nodes/bulk-rebuild/", R::Simulation, SIM_POWER, I,
        POWER),
    row(GET, "/api/v3/simulations/{id}/ztp-script/", R::Simulation, SIM_READ, I,
        "The zero-touch provisioning script is part of the simulation's details."),
    row(PATCH, "/api/v3/simulations/{id}/ztp-script/", R::Simulation, SIM_EDIT, I, PROPERTY),
    row(DELETE, "/api/v3/simulations/{id}/ztp-script/", R::Simulation, SIM_EDIT, I,
        "Removing the script changes a property of the simulation; simulation_delete is kept \
         for whole simulations."),
    // Node
    row(GET, "/api/v3/simulations/nodes/", R::Node, SIM_READ, D,
        "'Read simulation details, nodes'."),
    row(POST, "/api/v3/simulations/nodes/", R::Node, SIM_EDIT, I, TOPOLOGY),
    row(POST, "/api/v3/simulations/nodes/from-system-node/", R::Node, SIM_EDIT, I, TOPOLOGY),
    row(GET, "/api/v3/simulations/nodes/{id}/", R::Node, SIM_READ, D,
        "'Read simulation details, nodes'."),
    row(PATCH, "/api/v3/simulations/nodes/{id}/", R::Node, SIM_EDIT, I, TOPOLOGY),
    row(DELETE, "/api/v3/simulations/nodes/{id}/", R::Node, SIM_EDIT, I, TOPOLOGY),
    row(GET, "/api/v3/simulations/nodes/instructions/", R::Node, SIM_READ, I,
        "Instructions queued for a node are node details."),
    row(POST, "/api/v3/simulations/nodes/instructions/", R::Node, SIM_EDIT, I,
        "Queues configuration for a node: a change to the simulation, not to its power state."),
    row(GET, "/api/v3/simulations/nodes/instructions/{id}/", R::Node, SIM_READ, I,
        "Instructions queued for a node are node details."),
    row(DELETE, "/api/v3/simulations/nodes/instructions/{id}/", R::Node, SIM_EDIT, I,
        "Withdraws queued configuration: a change to the simulation."),
    // Interface
    row(GET, "/api/v3/simulations/nodes/interfaces/", R::Interface, SIM_READ, D,
        "'Read simulation details, nodes, interfaces'."),
    row(POST, "/api/v3/simulations/nodes/interfaces/", R::Interface, SIM_EDIT, I, TOPOLOGY),
    row(GET, "/api/v3/simulations/nodes/interfaces/{id}/", R::Interface, SIM_READ, D,
        "'Read simulation details, nodes, interfaces'."),
    row(PATCH, "/api/v3/simulations/nodes/interfaces/{id}/", R::Interface, SIM_EDIT, I,
        TOPOLOGY),
    row(DELETE, "/api/v3/simulations/nodes/interfaces/{id}/", R::Interface, SIM_EDIT, I,
        TOPOLOGY),
    row(POST, "/api/v3/simulations/nodes/interfaces/{id}/breakout/", R::Interface, SIM_EDIT, I,
        TOPOLOGY),
    row(POST, "/api/v3/simulations/nodes/interfaces/{id}/revert-breakout/", R::Interface,
        SIM_EDIT, I, TOPOLOGY),
    row(GET, "/api/v3/simulations/nodes/interfaces/links/", R::Interface, SIM_READ, I,
        "Links join interfaces: interface details."),
    row(POST, "/api/v3/simulations/nodes/interfaces/links/", R::Interface, SIM_EDIT, I,
        TOPOLOGY),
    row(GET, "/api/v3/simulations/nodes/interfaces/links/{id}/", R::Interface, SIM_READ, I,
        "Links join interfaces: interface details."),
    row(DELETE, "/api/v3/simulations/nodes/interfaces/links/{id}/", R::Interface, SIM_EDIT, I,
        TOPOLOGY),
    // Service
    row(GET, "/api/v3/simulations/nodes/interfaces/services/", R::Service, SIM_READ, D,
        "'Read simulation details, nodes, interfaces, services'."),
    row(POST, "/api/v3/simulations/nodes/interfaces/services/", R::Service, SIM_EDIT, I,
        "A service (port forward) is part of the simulation's configuration."),
    row(GET, "/api/v3/simulations/nodes/interfaces/services/{id}/", R::Service, SIM_READ, D,
        "'Read simulation details, nodes, interfaces, services'."),
    row(PATCH, "/api/v3/simulations/nodes/interfaces/services/{id}/", R::Service, SIM_EDIT, I,
        "A service (port forward) is part of the simulation's configuration."),
    row(DELETE, "/api/v3/simulations/nodes/interfaces/services/{id}/", R::Service, SIM_EDIT, I,
        "A service (port forward) is part of the simulation's configuration."),
    // Image
    row(GET, "/api/v3/images/", R::Image, IMG_READ, D,
        "'View published and organization images'."),
    row(POST, "/api/v3/images/", R::Image, IMG_WRITE, D, "'Upload … images'."),
    row(GET, "/api/v3/images/{id}/", R::Image, IMG_READ, D,
        "'View published and organization images'."),
    row(PATCH, "/api/v3/images/{id}/", R::Image, IMG_WRITE, D, "'Upload and edit images'."),
    row(DELETE, "/api/v3/images/{id}/", R::Image, IMG_WRITE, I,
        "No image-delete scope exists; removing an upload belongs with uploading and editing, \
         not with publishing (which is about visibility)."),
    row(PATCH, "/api/v3/images/{id}/clear-upload/", R::Image, IMG_WRITE, I,
        "Discards an uploaded file so it can be uploaded again: part of uploading."),
    row(PATCH, "/api/v3/images/{id}/publish/", R::Image, IMG_PUBLISH, D,
        "'Publish images for public availability'."),
    row(PATCH, "/api/v3/images/{id}/unpublish/", R::Image, IMG_PUBLISH, I,
        "Withdrawing public availability is the inverse of publishing and needs the same \
         authority."),
    // Image share link
    row(GET, "/api/v3/images/shares/", R::ImageShareLink, SHARE_READ, I, SHARE_BROWSE),
    row(POST, "/api/v3/images/shares/", R::ImageShareLink, IMG_SHARE, D,
        "'Create cross-organization image share links'."),
    row(GET, "/api/v3/images/shares/{id}/", R::ImageShareLink, SHARE_READ, I, SHARE_BROWSE),
    row(DELETE, "/api/v3/images/shares/{id}/", R::ImageShareLink, IMG_SHARE, I,
        "Revoking a share link belongs with creating it."),
    row(POST, "/api/v3/images/claim-image-share/", R::ImageShareLink, IMG_CLAIM, D,
        "'Claim images shared from another organization'."),
    // Marketplace demo
    row(GET, "/api/v3/marketplace/demos/", R::MarketplaceDemo, DEMO_READ, I, DEMO_BROWSE),
    row(POST, "/api/v3/marketplace/demos/", R::MarketplaceDemo, DEMO_WRITE, D,
        "'Create and edit marketplace demos'."),
    row(GET, "/api/v3/marketplace/demos/{id}/", R::MarketplaceDemo, DEMO_READ, I, DEMO_BROWSE),
    row(PATCH, "/api/v3/marketplace/demos/{id}/", R::MarketplaceDemo, DEMO_WRITE, D,
        "'Create and edit marketplace demos'."),
    row(DELETE, "/api/v3/marketplace/demos/{id}/", R::MarketplaceDemo, DEMO_WRITE, I,
        "No demo-delete scope exists; removing a demo belongs with creating and editing it."),
    row(PATCH, "/api/v3/marketplace/demos/{id}/publish/", R::MarketplaceDemo, DEMO_PUBLISH, D,
        "'Publish demos to the marketplace'."),
    row(PATCH, "/api/v3/marketplace/demos/{id}/unpublish/", R::MarketplaceDemo, DEMO_PUBLISH,
        I, "Withdrawing a demo is the inverse of publishing and needs the same authority."),
    row(POST, "/api/v3/marketplace/demos/{id}/provision/", R::MarketplaceDemo,
        all(&[S::SimulationRead, S::SimulationCreate]), I,
        "Provisioning creates a simulation from the demo, so it needs create and, as for \
         clone, read of the source: else a create-only key could read any demo by \
         provisioning it (the answer is a copy of it). Of the scopes that may browse demos, simulation_read is \
         the one that also reads the simulation made."),
    row(GET, "/api/v3/marketplace/demos/tags/", R::MarketplaceDemo, DEMO_READ, I, DEMO_BROWSE),
    row(POST, "/api/v3/marketplace/demos/tags/", R::MarketplaceDemo, DEMO_WRITE, I,
        "Tags are demo content."),
    row(DELETE, "/api/v3/marketplace/demos/tags/{id}/", R::MarketplaceDemo, DEMO_WRITE, I,
        "Tags are demo content."),
    // Training session
    row(GET, "/api/v3/trainings/", R::TrainingSession, TRAINING, I, TRAINING_READ),
    row(POST, "/api/v3/trainings/", R::TrainingSession, TRAINING, D,
        "'Create and manage training sessions'."),
    row(GET, "/api/v3/trainings/{id}/", R::TrainingSession, TRAINING, I, TRAINING_READ),
    row(PATCH, "/api/v3/trainings/{id}/", R::TrainingSession, TRAINING, D,
        "'Create and manage training sessions'."),
    row(DELETE, "/api/v3/trainings/{id}/", R::TrainingSession, TRAINING, D,
        "'Create and manage training sessions'."),
    row(PATCH, "/api/v3/trainings/{id}/attendees/add/", R::TrainingSession, TRAINING, D,
        "'Create and manage training sessions': attendees are part of the session."),
    row(PATCH, "/api/v3/trainings/{id}/attendees/remove/", R::TrainingSession, TRAINING, D,
        "'Create and manage training sessions': attendees are part of the session."),
    row(GET, "/api/v3/trainings/{id}/external-user-group/", R::TrainingSession, TRAINING, I,
        TRAINING_READ),
];
