//! Deprecation registry, notice objects, request rules and standard headers (spec: pagination-and-deprecation.md part B).
