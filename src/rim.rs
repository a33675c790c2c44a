//! Reference measurements: RIM documents, XML signatures, RIM ids, measurement comparison.
