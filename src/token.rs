//! ES384 JWS/JWT, JWKS and detached EAT results: mint and verify.
