// GENERATED from the core's serde types by tests/it/ts_generated.rs (ts-rs); do not edit.
// Regenerate: EDGEATTEST_BLESS=1 cargo test --features ts --test it ts_generated
// Replayable verdicts (src/wasm/replay.rs): what `replayAttestation` takes and returns,
// in the service module only; names from the other fragments and the generated classes
// are in scope there.

/** The anchors to replay with: NVIDIA's, and the extra ones given. */
export interface ReplayOptions {
  /**
   * Extra device root certificates (PEM), trusted besides the NVIDIA device root: the
   * service's `trustAnchors`.
   */
  trustAnchors?: string;
  /**
   * Extra RIM root certificates (PEM), trusted besides the NVIDIA RIM root: the service's
   * `rimTrustAnchors`.
   */
  rimTrustAnchors?: string;
}

/** One token's claims. */
export interface ReplayTokenClaims {
  /** `overall`, the device label (`GPU-0`), `eat` or `ear`. */
  label: string;
  /** The claims, in the token's order. */
  claims: Record<string, unknown>;
}

/** A response read as claims. */
export interface ReplayVerdict {
  /** The status. */
  status: number;
  /**
   * The tokens' claims, in the response's order: `overall` then `GPU-0`, … (NVIDIA's
   * JSON), `eat` (V1), or `ear` (an EAR). Empty for a response without tokens.
   */
  tokens: ReplayTokenClaims[];
  /** A response without tokens: its body, as JSON when it is JSON, else as text. */
  body: unknown;
}

/** One way the replayed verdict, or the bundle, differs from the recorded one. */
export type ReplayDifference =
  | {
    "kind": "inputDigest";
    /** `time`, `entropy`, `request`, `config`, `rims[i]`, `fetches[i]`, `result`. */
    input: string;
    /** The recorded digest. */
    recorded: string;
    /** The digest of the value in the bundle. */
    computed: string;
  }
  | {
    "kind": "anchors";
    /** `device` or `rim`. */
    which: string;
    /** The recorded digest. */
    recorded: string;
    /** The digest of the replayer's anchors. */
    computed: string;
  }
  | {
    "kind": "fetch";
    /** The answer's position in `fetches`. */
    index: number;
    /** What the recorded answer answered. */
    recorded: string;
    /** What the replay asked for. */
    asked: string;
  }
  | {
    "kind": "fetchCount";
    /** Answers recorded. */
    recorded: number;
    /** Resources the replay asked for. */
    asked: number;
  }
  | {
    "kind": "status";
    /** The recorded status. */
    recorded: number;
    /** The replayed status. */
    replayed: number;
  }
  | {
    "kind": "tokens";
    /** The recorded labels. */
    recorded: string[];
    /** The replayed labels. */
    replayed: string[];
  }
  | {
    "kind": "claim";
    /** The token's label. */
    token: string;
    /** The claim. */
    claim: string;
    /** Its JSON in the recorded token (`None`: absent). */
    recorded: string | null;
    /** Its JSON in the replayed token (`None`: absent). */
    replayed: string | null;
  }
  | {
    "kind": "claimOrder";
    /** The token's label. */
    token: string;
  }
  | {
    "kind": "body";
    /** The recorded body. */
    recorded: unknown;
    /** The replayed body. */
    replayed: unknown;
  };

/** A replayed verdict beside the recorded one. */
export interface Replayed {
  /**
   * No difference: every input has its recorded digest, the anchors are the recorded
   * ones and the replayed claims are the recorded claims.
   */
  matches: boolean;
  /** The recorded verdict. */
  recorded: ReplayVerdict;
  /** The replayed verdict. */
  replayed: ReplayVerdict;
  /** Each difference, inputs first. */
  differences: ReplayDifference[];
}
