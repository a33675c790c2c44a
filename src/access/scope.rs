//! The thirteen scopes of the simulation service and sets of them (spec §5, "Scopes").

use alloc::vec::Vec;
use core::fmt;

use serde::{Serialize, Serializer};

/// One permission, checked on each request (spec §5, "Scopes (checked on each request)").
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[non_exhaustive]
pub enum Scope {
    /// `lab:simulation_read`: read simulation details, nodes, interfaces, services.
    SimulationRead,
    /// `lab:simulation_create`: create simulations by import, clone or UI.
    SimulationCreate,
    /// `lab:simulation_edit`: modify simulation properties and topology.
    SimulationEdit,
    /// `lab:simulation_delete`: delete simulations.
    SimulationDelete,
    /// `lab:simulation_start_stop`: start and stop simulations.
    SimulationStartStop,
    /// `lab:image_read`: view published and organization images.
    ImageRead,
    /// `lab:image_write`: upload and edit images.
    ImageWrite,
    /// `lab:image_publish`: publish images for public availability.
    ImagePublish,
    /// `lab:image_sharing`: create cross-organization image share links.
    ImageSharing,
    /// `lab:image_claiming`: claim images shared from another organization.
    ImageClaiming,
    /// `lab:marketplace_demo_write`: create and edit marketplace demos.
    MarketplaceDemoWrite,
    /// `lab:marketplace_demo_publish`: publish demos to the marketplace.
    MarketplaceDemoPublish,
    /// `lab:training_instructor`: create and manage training sessions.
    TrainingInstructor,
}

impl Scope {
    /// Every scope, in the order of the spec's table.
    pub const ALL: [Self; 13] = [
        Self::SimulationRead,
        Self::SimulationCreate,
        Self::SimulationEdit,
        Self::SimulationDelete,
        Self::SimulationStartStop,
        Self::ImageRead,
        Self::ImageWrite,
        Self::ImagePublish,
        Self::ImageSharing,
        Self::ImageClaiming,
        Self::MarketplaceDemoWrite,
        Self::MarketplaceDemoPublish,
        Self::TrainingInstructor,
    ];

    /// The wire name, e.g. `lab:simulation_read`.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::SimulationRead => "lab:simulation_read",
            Self::SimulationCreate => "lab:simulation_create",
            Self::SimulationEdit => "lab:simulation_edit",
            Self::SimulationDelete => "lab:simulation_delete",
            Self::SimulationStartStop => "lab:simulation_start_stop",
            Self::ImageRead => "lab:image_read",
            Self::ImageWrite => "lab:image_write",
            Self::ImagePublish => "lab:image_publish",
            Self::ImageSharing => "lab:image_sharing",
            Self::ImageClaiming => "lab:image_claiming",
            Self::MarketplaceDemoWrite => "lab:marketplace_demo_write",
            Self::MarketplaceDemoPublish => "lab:marketplace_demo_publish",
            Self::TrainingInstructor => "lab:training_instructor",
        }
    }

    /// The permission the scope grants, as the spec words it.
    pub const fn description(self) -> &'static str {
        match self {
            Self::SimulationRead => "Read simulation details, nodes, interfaces, services",
            Self::SimulationCreate => "Create simulations by import, clone or UI",
            Self::SimulationEdit => "Modify simulation properties and topology",
            Self::SimulationDelete => "Delete simulations",
            Self::SimulationStartStop => "Start and stop simulations",
            Self::ImageRead => "View published and organization images",
            Self::ImageWrite => "Upload and edit images",
            Self::ImagePublish => {
                "Publish images for public availability (not restricted to any organization)"
            }
            Self::ImageSharing => "Create cross-organization image share links",
            Self::ImageClaiming => "Claim images shared from another organization",
            Self::MarketplaceDemoWrite => "Create and edit marketplace demos",
            Self::MarketplaceDemoPublish => "Publish demos to the marketplace",
            Self::TrainingInstructor => "Create and manage training sessions",
        }
    }

    /// Parses a wire name. Scope names are case-sensitive (RFC 6749 §3.3).
    pub fn parse(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|scope| scope.as_str() == name)
    }

    const fn bit(self) -> u16 {
        1 << (self as u16)
    }
}

impl fmt::Display for Scope {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Serialize for Scope {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

/// A set of scopes. Iteration and serialisation follow the spec's table order, so output is
/// deterministic whatever order the scopes were added in.
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct ScopeSet(u16);

impl ScopeSet {
    /// The empty set.
    pub const EMPTY: Self = Self(0);

    /// A set holding `scopes`.
    pub const fn of(scopes: &[Scope]) -> Self {
        let mut bits = 0;
        let mut i = 0;
        while i < scopes.len() {
            bits |= scopes[i].bit();
            i += 1;
        }
        Self(bits)
    }

    /// Whether `scope` is in the set.
    pub const fn contains(self, scope: Scope) -> bool {
        self.0 & scope.bit() != 0
    }

    /// Whether every scope of `other` is in the set.
    pub const fn is_superset(self, other: Self) -> bool {
        self.0 & other.0 == other.0
    }

    /// Whether the two sets share a scope.
    pub const fn intersects(self, other: Self) -> bool {
        self.0 & other.0 != 0
    }

    /// The union of the two sets.
    #[must_use]
    pub const fn union(self, other: Self) -> Self {
        Self(self.0 | other.0)
    }

    /// The scopes of `self` that `other` lacks.
    #[must_use]
    pub const fn difference(self, other: Self) -> Self {
        Self(self.0 & !other.0)
    }

    /// Adds `scope`.
    pub fn insert(&mut self, scope: Scope) {
        self.0 |= scope.bit();
    }

    /// Whether the set is empty.
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The number of scopes in the set.
    pub const fn len(self) -> usize {
        self.0.count_ones() as usize
    }

    /// The scopes, in the spec's table order.
    pub fn iter(self) -> impl Iterator<Item = Scope> {
        Scope::ALL
            .into_iter()
            .filter(move |scope| self.contains(*scope))
    }

    /// The scopes as wire names, in the spec's table order.
    pub fn names(self) -> Vec<&'static str> {
        self.iter().map(Scope::as_str).collect()
    }
}

impl FromIterator<Scope> for ScopeSet {
    fn from_iter<I: IntoIterator<Item = Scope>>(iter: I) -> Self {
        let mut set = Self::EMPTY;
        for scope in iter {
            set.insert(scope);
        }
        set
    }
}

impl fmt::Debug for ScopeSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set()
            .entries(self.iter().map(Scope::as_str))
            .finish()
    }
}

/// Space-separated, as in the OAuth `scope` parameter (RFC 6749 §3.3).
impl fmt::Display for ScopeSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, scope) in self.iter().enumerate() {
            if i > 0 {
                f.write_str(" ")?;
            }
            f.write_str(scope.as_str())?;
        }
        Ok(())
    }
}

/// A JSON array of wire names.
impl Serialize for ScopeSet {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.iter())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::ToString;

    #[test]
    fn names_round_trip_and_are_case_sensitive() {
        for scope in Scope::ALL {
            assert_eq!(Scope::parse(scope.as_str()), Some(scope));
            assert!(scope.as_str().starts_with("lab:"));
        }
        assert_eq!(Scope::parse("LAB:SIMULATION_READ"), None);
        assert_eq!(Scope::parse("lab:simulation_read "), None);
        assert_eq!(Scope::parse("simulation_read"), None);
    }

    #[test]
    fn set_operations() {
        let a = ScopeSet::of(&[Scope::ImageRead, Scope::SimulationRead]);
        let b = ScopeSet::of(&[Scope::ImageRead]);
        assert!(a.is_superset(b) && !b.is_superset(a));
        assert_eq!(a.difference(b), ScopeSet::of(&[Scope::SimulationRead]));
        assert_eq!(a.len(), 2);
        assert_eq!(a.to_string(), "lab:simulation_read lab:image_read");
        assert_eq!(
            serde_json::to_string(&a).unwrap(),
            r#"["lab:simulation_read","lab:image_read"]"#
        );
        assert!(ScopeSet::EMPTY.is_superset(ScopeSet::EMPTY));
        assert!(!a.intersects(ScopeSet::of(&[Scope::TrainingInstructor])));
    }
}
