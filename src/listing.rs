//! List queries: filter, sort and page (spec: pagination-and-deprecation.md part A).
