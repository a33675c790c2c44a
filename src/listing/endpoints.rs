//! The nine list endpoints and the columns of their items.
//!
//! The alert item is exactly the spec's (§2 A). The spec does not show the items of the
//! other eight endpoints; their columns here are our documented choice, modelled on what the
//! UFM Cyber-AI pages describe (node GUIDs, ports, cables, scores, probabilities). Every
//! item has a unique integer primary key (`*_id`) as its first column.

use super::schema::{Column, ColumnType as T, Schema, ValueGen as G};

const SEVERITIES: &[&str] = &["critical", "major", "minor", "warning", "info"];
const NODES_POOL: u32 = 512;
const CABLE_POOL: u32 = 2048;

const fn col(name: &'static str, column_type: T, doc: &'static str, generator: G) -> Column {
    Column {
        name,
        column_type,
        doc,
        generator,
    }
}

const TIMESTAMP: Column = col(
    "timestamp",
    T::Integer,
    "when it was detected, Unix seconds (the spec does not state the unit; we use seconds)",
    G::Timestamp,
);
const SEVERITY: Column = col(
    "severity",
    T::String,
    "critical, major, minor, warning or info",
    G::Choice(SEVERITIES),
);
const NODE_GUID: Column = col(
    "node_guid",
    T::String,
    "GUID of the node, `0x` and 16 lowercase hex digits",
    G::Guid(NODES_POOL),
);
const PORT_NUMBER: Column = col("port_number", T::Integer, "port on the node", G::Int(1, 64));

/// `/analytics/alerts/filter`: the spec's alert item (§2 A), columns in the spec's order.
const ALERT: &[Column] = &[
    col("alert_id", T::Integer, "primary key", G::Key),
    col(
        "occurrence",
        T::Integer,
        "how many times the alert fired",
        G::Int(1, 500),
    ),
    SEVERITY,
    col(
        "description",
        T::String,
        "what was observed",
        G::Text(&[
            "Port {n} symbol error rate above baseline",
            "Link flapping detected on port {n}",
            "Congestion on uplink group {n}",
            "Unexpected traffic pattern from {n} hosts",
            "Temperature of cable {n} rising",
            "Packet drops on switch port {n}",
        ]),
    ),
    col(
        "influencers",
        T::StringArray,
        "GUIDs of the nodes that contributed",
        G::GuidList(NODES_POOL, 4),
    ),
    col(
        "percentage",
        T::Number,
        "share of the anomaly score the influencers explain, 0 to 100",
        G::Num(0.0, 100.0, 2),
    ),
    col(
        "influencers_display_names",
        T::StringArray,
        "display names of the influencers, same order",
        G::DisplayNamesOf(4),
    ),
    TIMESTAMP,
];

const ANOMALY_TYPES: &[&str] = &[
    "bandwidth",
    "congestion",
    "latency",
    "link_flap",
    "packet_drop",
    "symbol_error",
];

/// `/analytics/anomalies/network`.
const NETWORK_ANOMALY: &[Column] = &[
    col("anomaly_id", T::Integer, "primary key", G::Key),
    TIMESTAMP,
    col(
        "anomaly_type",
        T::String,
        "kind of anomaly",
        G::Choice(ANOMALY_TYPES),
    ),
    SEVERITY,
    col(
        "score",
        T::Number,
        "anomaly score, 0 to 1",
        G::Num(0.0, 1.0, 4),
    ),
    NODE_GUID,
    PORT_NUMBER,
    col(
        "description",
        T::String,
        "what was observed",
        G::Text(&[
            "Traffic on port {n} deviates from its weekly profile",
            "Latency spike across {n} hops",
            "Sustained congestion for {n} minutes",
        ]),
    ),
];

const TENANTS: &[&str] = &[
    "tenant-alpha",
    "tenant-beta",
    "tenant-gamma",
    "tenant-delta",
    "tenant-epsilon",
    "tenant-zeta",
    "tenant-eta",
    "tenant-theta",
];

/// `/analytics/anomalies/tenant`.
const TENANT_ANOMALY: &[Column] = &[
    col("anomaly_id", T::Integer, "primary key", G::Key),
    TIMESTAMP,
    col("tenant", T::String, "tenant name", G::Choice(TENANTS)),
    col(
        "anomaly_type",
        T::String,
        "kind of anomaly",
        G::Choice(ANOMALY_TYPES),
    ),
    SEVERITY,
    col(
        "score",
        T::Number,
        "anomaly score, 0 to 1",
        G::Num(0.0, 1.0, 4),
    ),
    col(
        "nodes",
        T::StringArray,
        "GUIDs of the tenant's nodes involved",
        G::GuidList(NODES_POOL, 6),
    ),
    col(
        "description",
        T::String,
        "what was observed",
        G::Text(&[
            "Tenant traffic {n}% above its baseline",
            "Cross-tenant traffic on {n} links",
            "Tenant job stalled on {n} nodes",
        ]),
    ),
];

/// `/analytics/anomalies/logical-server`.
const LOGICAL_SERVER_ANOMALY: &[Column] = &[
    col("anomaly_id", T::Integer, "primary key", G::Key),
    TIMESTAMP,
    col(
        "logical_server",
        T::String,
        "logical server name",
        G::Text(&["ls-{n}"]),
    ),
    col("tenant", T::String, "owning tenant", G::Choice(TENANTS)),
    SEVERITY,
    col(
        "score",
        T::Number,
        "anomaly score, 0 to 1",
        G::Num(0.0, 1.0, 4),
    ),
    col(
        "nodes",
        T::StringArray,
        "GUIDs of the server's nodes involved",
        G::GuidList(NODES_POOL, 6),
    ),
    col(
        "description",
        T::String,
        "what was observed",
        G::Text(&[
            "Logical server uses {n}% more bandwidth than allocated",
            "Collective operation slowed on {n} ranks",
        ]),
    ),
];

/// `/analytics/telemetry/link-status`.
const LINK_STATUS: &[Column] = &[
    col("link_id", T::Integer, "primary key", G::Key),
    TIMESTAMP,
    col(
        "source_guid",
        T::String,
        "GUID of the link's source node",
        G::Guid(NODES_POOL),
    ),
    col("source_port", T::Integer, "source port", G::Int(1, 64)),
    col(
        "destination_guid",
        T::String,
        "GUID of the link's destination node",
        G::Guid(NODES_POOL),
    ),
    col(
        "destination_port",
        T::Integer,
        "destination port",
        G::Int(1, 64),
    ),
    col(
        "state",
        T::String,
        "active, down, init or polling",
        G::Choice(&["active", "active", "active", "down", "init", "polling"]),
    ),
    col(
        "speed",
        T::String,
        "link speed",
        G::Choice(&["HDR", "NDR", "XDR", "EDR"]),
    ),
    col(
        "bit_error_rate",
        T::Number,
        "raw bit error rate",
        G::Num(0.0, 0.000_001, 12),
    ),
    col(
        "symbol_errors",
        T::Integer,
        "symbol errors in the last interval",
        G::Int(0, 10_000),
    ),
];

/// `/analytics/prediction/link-anomaly`.
const LINK_ANOMALY_PREDICTION: &[Column] = &[
    col("prediction_id", T::Integer, "primary key", G::Key),
    TIMESTAMP,
    NODE_GUID,
    PORT_NUMBER,
    col(
        "predicted_anomaly",
        T::String,
        "kind of anomaly predicted",
        G::Choice(ANOMALY_TYPES),
    ),
    col(
        "probability",
        T::Number,
        "probability, 0 to 1",
        G::Num(0.0, 1.0, 4),
    ),
    col(
        "features",
        T::StringArray,
        "counters that drove the prediction",
        G::WordList(FEATURES, 3),
    ),
];

const FEATURES: &[&str] = &[
    "symbol_errors",
    "link_downed",
    "rcv_errors",
    "xmit_discards",
    "temperature",
    "raw_ber",
    "effective_ber",
];

/// `/analytics/prediction/link-failure`.
const LINK_FAILURE_PREDICTION: &[Column] = &[
    col("prediction_id", T::Integer, "primary key", G::Key),
    TIMESTAMP,
    NODE_GUID,
    PORT_NUMBER,
    col(
        "probability",
        T::Number,
        "probability of failure within the horizon, 0 to 1",
        G::Num(0.0, 1.0, 4),
    ),
    col(
        "horizon_hours",
        T::Integer,
        "prediction horizon in hours",
        G::IntChoice(&[1, 6, 24, 72]),
    ),
    col(
        "reasons",
        T::StringArray,
        "counters that drove the prediction",
        G::WordList(FEATURES, 3),
    ),
];

const CABLE_COUNTERS: &[&str] = &[
    "temperature",
    "voltage",
    "rx_power",
    "tx_power",
    "tx_bias",
    "raw_ber",
];

/// `/analytics/anomalies/cable/threshold`.
const CABLE_THRESHOLD: &[Column] = &[
    col("anomaly_id", T::Integer, "primary key", G::Key),
    TIMESTAMP,
    col(
        "cable_serial",
        T::String,
        "serial number of the cable",
        G::Serial(CABLE_POOL),
    ),
    NODE_GUID,
    PORT_NUMBER,
    col(
        "counter",
        T::String,
        "the transceiver counter",
        G::Choice(CABLE_COUNTERS),
    ),
    col(
        "value",
        T::Number,
        "the counter's value",
        G::Num(0.0, 100.0, 3),
    ),
    col(
        "threshold",
        T::Number,
        "the threshold it crossed",
        G::Num(0.0, 100.0, 1),
    ),
    SEVERITY,
];

/// `/analytics/anomalies/cable/deviation`.
const CABLE_DEVIATION: &[Column] = &[
    col("anomaly_id", T::Integer, "primary key", G::Key),
    TIMESTAMP,
    col(
        "cable_serial",
        T::String,
        "serial number of the cable",
        G::Serial(CABLE_POOL),
    ),
    NODE_GUID,
    PORT_NUMBER,
    col(
        "counter",
        T::String,
        "the transceiver counter",
        G::Choice(CABLE_COUNTERS),
    ),
    col(
        "value",
        T::Number,
        "the counter's value",
        G::Num(0.0, 100.0, 3),
    ),
    col(
        "baseline",
        T::Number,
        "the cable's own baseline for the counter",
        G::Num(0.0, 100.0, 3),
    ),
    col(
        "deviation",
        T::Number,
        "distance from the baseline in standard deviations",
        G::Num(-10.0, 10.0, 2),
    ),
    SEVERITY,
];

const fn schema(path: &'static str, item: &'static str, columns: &'static [Column]) -> Schema {
    Schema {
        path,
        item,
        columns,
        key: 0,
    }
}

impl Schema {
    /// The schema of a list endpoint path, or `None` when the path is not one of the nine.
    pub fn for_path(path: &str) -> Option<&'static Schema> {
        SCHEMAS.iter().find(|schema| schema.path == path)
    }

    /// All nine schemas, in the spec's order of paths.
    pub fn all() -> &'static [Schema] {
        &SCHEMAS
    }
}

/// The nine endpoints in the spec's order (§4 A).
static SCHEMAS: [Schema; 9] = [
    schema(
        "/analytics/anomalies/network",
        "network anomaly",
        NETWORK_ANOMALY,
    ),
    schema("/analytics/alerts/filter", "alert", ALERT),
    schema(
        "/analytics/anomalies/tenant",
        "tenant anomaly",
        TENANT_ANOMALY,
    ),
    schema(
        "/analytics/anomalies/logical-server",
        "logical-server anomaly",
        LOGICAL_SERVER_ANOMALY,
    ),
    schema(
        "/analytics/telemetry/link-status",
        "link status",
        LINK_STATUS,
    ),
    schema(
        "/analytics/prediction/link-anomaly",
        "link anomaly prediction",
        LINK_ANOMALY_PREDICTION,
    ),
    schema(
        "/analytics/prediction/link-failure",
        "link failure prediction",
        LINK_FAILURE_PREDICTION,
    ),
    schema(
        "/analytics/anomalies/cable/threshold",
        "cable threshold anomaly",
        CABLE_THRESHOLD,
    ),
    schema(
        "/analytics/anomalies/cable/deviation",
        "cable deviation anomaly",
        CABLE_DEVIATION,
    ),
];
