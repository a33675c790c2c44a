//! Certificate path validation to a trust store, DICE/FWID extensions, hwmodel and ueid.
