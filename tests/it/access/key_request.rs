//! The key-issuing rule (issue 18): personal keys take `roles`, service keys `scopes`, never
//! the other; every name must be one the spec defines. One rule in the core, which the JS
//! `createApiKey` calls, so the codes, fields and messages here are the JS ones.
#![cfg(not(target_arch = "wasm32"))]

use edgeattest::access::{
    Grant, KeyRequest, KeyRequestError, KeyType, Role, Scope, ScopeSet, SIMULATION_SERVICE,
};
use edgeattest::ErrorCode;

const RANDOM: [u8; 32] = [7; 32];

fn names(list: &[&str]) -> Option<Vec<String>> {
    Some(list.iter().map(|name| (*name).to_string()).collect())
}

fn refused(request: &KeyRequest, field: &str, message: &str) {
    let error = request.grant().expect_err("refused");
    assert_eq!(error.code(), "ERR_INVALID_ARGUMENT");
    assert_eq!(error.field(), Some(field));
    assert_eq!(error.to_string(), message);
    assert_eq!(request.issue("x", &RANDOM).expect_err("refused"), error);
}

#[test]
fn personal_keys_take_roles_in_order() {
    let request = KeyRequest {
        roles: names(&["lab_user", "lab_image_sharer", "lab_user"]),
        ..KeyRequest::new(KeyType::Personal)
    };
    let roles = vec![Role::LabUser, Role::LabImageSharer, Role::LabUser];
    assert_eq!(
        request.grant(),
        Ok(Grant::Personal {
            roles: roles.clone()
        })
    );
    let issued = request.issue("alice", &RANDOM).expect("issued");
    assert_eq!(issued.record().key_type(), KeyType::Personal);
    assert_eq!(issued.record().grant(), &Grant::Personal { roles });
    assert_eq!(issued.record().services(), [SIMULATION_SERVICE]);
    // No roles given is a key with no scopes, not an error.
    let none = KeyRequest::new(KeyType::Personal).grant();
    assert_eq!(none, Ok(Grant::Personal { roles: vec![] }));
}

#[test]
fn service_keys_hold_exactly_their_scopes() {
    let request = KeyRequest {
        scopes: names(&["lab:simulation_read", "lab:image_read"]),
        services: names(&["attestation"]),
        ..KeyRequest::new(KeyType::Service)
    };
    let scopes = ScopeSet::of(&[Scope::SimulationRead, Scope::ImageRead]);
    assert_eq!(request.grant(), Ok(Grant::Service { scopes }));
    let issued = request.issue("ci", &RANDOM).expect("issued");
    assert_eq!(issued.record().key_type(), KeyType::Service);
    assert_eq!(issued.record().scopes(), scopes);
    assert_eq!(issued.record().services(), ["attestation"]);
}

#[test]
fn each_type_refuses_the_other_member_even_empty() {
    refused(
        &KeyRequest {
            scopes: names(&[]),
            ..KeyRequest::new(KeyType::Personal)
        },
        "scopes",
        "personal keys get their scopes from roles; scopes is not allowed",
    );
    refused(
        &KeyRequest {
            roles: names(&["lab_user"]),
            scopes: names(&["lab:simulation_read"]),
            ..KeyRequest::new(KeyType::Service)
        },
        "roles",
        "service keys hold exactly their chosen scopes; roles is not allowed",
    );
    // The member's presence is refused before its names are read.
    refused(
        &KeyRequest {
            roles: names(&["no_such_role"]),
            ..KeyRequest::new(KeyType::Service)
        },
        "roles",
        "service keys hold exactly their chosen scopes; roles is not allowed",
    );
}

#[test]
fn unknown_names_are_refused_with_their_index() {
    refused(
        &KeyRequest {
            roles: names(&["lab_user", "lab_image_sharer", "lab_admin_typo"]),
            ..KeyRequest::new(KeyType::Personal)
        },
        "roles[2]",
        "roles[2] must be a role name",
    );
    refused(
        &KeyRequest {
            scopes: names(&["lab:everything"]),
            ..KeyRequest::new(KeyType::Service)
        },
        "scopes[0]",
        "scopes[0] must be a scope name",
    );
    // A scope name is not a role name, nor the other way round.
    refused(
        &KeyRequest {
            roles: names(&["lab:simulation_read"]),
            ..KeyRequest::new(KeyType::Personal)
        },
        "roles[0]",
        "roles[0] must be a role name",
    );
    let error = KeyRequest {
        scopes: names(&["lab:image_read", "lab_user"]),
        ..KeyRequest::new(KeyType::Service)
    }
    .grant();
    assert!(matches!(error, Err(KeyRequestError::UnknownScope { field }) if field == "scopes[1]"));
}

#[test]
fn the_request_reads_the_create_api_key_options() {
    let json = r#"{"type":"service","id":"ci","scopes":["lab:image_read"],"expiresAt":1}"#;
    let request: KeyRequest = serde_json::from_str(json).expect("parsed");
    assert_eq!(request.kind, KeyType::Service);
    assert_eq!(request.scopes, names(&["lab:image_read"]));
    assert_eq!(request.roles, None);
    let unknown: Result<KeyRequest, _> = serde_json::from_str(r#"{"type":"admin"}"#);
    assert!(unknown.is_err());
}
