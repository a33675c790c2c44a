//! Composite EARs (in progress).
