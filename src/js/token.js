// Token API (ES384 JWS/JWT, JWKS, detached EAT): WebCrypto backend and wrappers.
export {};
