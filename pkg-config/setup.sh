#!/usr/bin/env bash
# Installs what building and testing edgeattest needs on a fresh machine with only the Rust
# toolchain, Node 20 with npm and Python 3.11. Idempotent: a second run only checks (~2 s).
#
#   bash pkg-config/setup.sh          # from anywhere; it works in the repository root
#
# Knobs: SKIP_APT=1 (no Debian packages: no browser tests), SKIP_PY=1 (no Python tools).
#
# Never installs Debian's `binaryen`: its wasm-opt 108 silently corrupts wasm-bindgen output.
# wasm-opt comes from the npm `binaryen` package (node_modules/.bin), see pkg-config/build.sh.
set -euo pipefail
cd "$(dirname "$0")/.."

WASM_PACK_VERSION=0.15.1
CARGO_BIN="${CARGO_HOME:-$HOME/.cargo}/bin"
export PATH="$CARGO_BIN:$PATH"
log() { printf '[setup] %s\n' "$*"; }
SECONDS=0

# 1. Debian: headless Chromium and its driver (browser tests, wasm-bindgen browser runner),
#    Firefox ESR (the wasm suites in Gecko; its driver is step 4c), and openssl (its `ocsp`
#    command is the OCSP responder of the revocation tests).
if [[ "${SKIP_APT:-0}" != 1 ]]; then
  missing=()
  for pkg in chromium chromium-driver firefox-esr; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed' || missing+=("$pkg")
  done
  command -v openssl >/dev/null || missing+=(openssl)
  if ((${#missing[@]})); then
    SUDO=""; [[ "$(id -u)" -eq 0 ]] || SUDO="sudo"
    log "apt-get install ${missing[*]}"
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  fi
fi

# 2. Rust targets: wasm32 for the module, wasm32-wasip2 for the component, x86_64-unknown-none
#    to prove the core is no_std.
installed_targets="$(rustup target list --installed)"
for target in wasm32-unknown-unknown wasm32-wasip2 x86_64-unknown-none; do
  grep -qx "$target" <<<"$installed_targets" || { log "rustup target add $target"; rustup target add "$target"; }
done

# 3. wasm-bindgen-cli: exactly the wasm-bindgen version of Cargo.lock (pinned with = in Cargo.toml).
[[ -f Cargo.lock ]] || cargo generate-lockfile
wb_version="$(awk '$1 == "name" && $3 == "\"wasm-bindgen\"" { getline; gsub(/"/, "", $3); print $3; exit }' Cargo.lock)"
have="$("$CARGO_BIN/wasm-bindgen" --version 2>/dev/null | awk '{print $2}' || true)"
if [[ "$have" != "$wb_version" ]]; then
  # Without --locked: its lockfile pins a crate version the registry no longer serves.
  log "cargo install wasm-bindgen-cli $wb_version (had: ${have:-none})"
  cargo install --quiet wasm-bindgen-cli --version "$wb_version"
fi

# 4. wasm-pack.
have="$("$CARGO_BIN/wasm-pack" --version 2>/dev/null | awk '{print $2}' || true)"
if [[ "$have" != "$WASM_PACK_VERSION" ]]; then
  log "cargo install wasm-pack $WASM_PACK_VERSION (had: ${have:-none})"
  cargo install --quiet --locked wasm-pack --version "$WASM_PACK_VERSION"
fi

# 4b. cargo-fuzz, for the fuzz smoke (pkg-config/fuzz-smoke.sh; runs on stable rustc there).
CARGO_FUZZ_VERSION=0.13.2
have="$("$CARGO_BIN/cargo-fuzz" --version 2>/dev/null | awk '{print $2}' || true)"
if [[ "$have" != "$CARGO_FUZZ_VERSION" ]]; then
  log "cargo install cargo-fuzz $CARGO_FUZZ_VERSION (had: ${have:-none})"
  cargo install --quiet --locked cargo-fuzz --version "$CARGO_FUZZ_VERSION"
fi

# 4c. geckodriver, the WebDriver of the wasm suites in Firefox (pkg-config/test.sh's
#     wasm-firefox stage). From the Rust registry: the npm package downloads a binary.
GECKODRIVER_VERSION=0.37.1
have="$("$CARGO_BIN/geckodriver" --version 2>/dev/null | awk 'NR==1{print $2}' || true)"
if [[ "$have" != "$GECKODRIVER_VERSION" ]]; then
  log "cargo install geckodriver $GECKODRIVER_VERSION (had: ${have:-none})"
  cargo install --quiet --locked geckodriver --version "$GECKODRIVER_VERSION"
fi

# 5. npm dev dependencies from the lockfile (binaryen, miniflare/workerd, playwright-core, jose, sql.js).
if [[ -f node_modules/.package-lock.json && node_modules/.package-lock.json -nt package-lock.json \
      && node_modules/.package-lock.json -nt package.json ]]; then
  :
else
  log "npm ci"
  npm ci --no-audit --no-fund --loglevel=error
fi

# 5b. Deno, for the runtime tests. Kept out of package.json: npm writes a lockfile for the
#     `deno` package that `npm ci` then refuses (its per-platform optional packages are missing).
DENO_VERSION=2.9.6
if [[ "$(DENO_NO_UPDATE_CHECK=1 target/tools/node_modules/.bin/deno --version 2>/dev/null | awk 'NR==1{print $2}')" != "$DENO_VERSION" ]]; then
  log "npm install deno@$DENO_VERSION (target/tools)"
  mkdir -p target/tools
  npm install --prefix target/tools --no-save --no-audit --no-fund --loglevel=error "deno@$DENO_VERSION" >/dev/null
fi

# 6. Python tools for independent cross-checks (PyJWT for tokens, lxml for XML C14N).
if [[ "${SKIP_PY:-0}" != 1 ]]; then
  if ! python3 -c 'import jwt, cryptography, lxml' 2>/dev/null; then
    log "pip install -r pkg-config/requirements-test.txt"
    python3 -m pip install --quiet --disable-pip-version-check --root-user-action=ignore -r pkg-config/requirements-test.txt
  fi
fi

# 7. ear-interop (pkg-config/ear-interop): Veraison's `ear` library as a command, for the
#    differential EAR test (pkg-config/test.sh's ear-interop stage). Its own crate, not a
#    dependency of edgeattest. Installed beside the other cargo tools ($CARGO_HOME/bin), so
#    every checkout on the machine shares it; rebuilt only when its sources change (a stamp of
#    their hash beside the binary; the build cache stays in ~/.cache/edgeattest). Cold:
#    ~10 min on 2 cores, as it compiles OpenSSL 3.6 (cose-rust turns on `openssl/vendored`
#    and needs OpenSSL >= 3.2, newer than Debian 12's) and aws-lc (jsonwebtoken's backend)
#    from C: needs cc, perl, make. Knob: SKIP_EAR_INTEROP=1.
EAR_INTEROP_ROOT=${CARGO_HOME:-$HOME/.cargo}
EAR_INTEROP=$EAR_INTEROP_ROOT/bin/ear-interop
if [[ "${SKIP_EAR_INTEROP:-0}" != 1 ]]; then
  stamp=$(cat pkg-config/ear-interop/Cargo.toml pkg-config/ear-interop/Cargo.lock \
    pkg-config/ear-interop/src/*.rs | sha256sum | cut -c1-16)
  if [[ ! -x $EAR_INTEROP || "$(cat "$EAR_INTEROP.stamp" 2>/dev/null)" != "$stamp" ]]; then
    log "cargo install ear-interop ($EAR_INTEROP; Veraison's ear 0.6.0 and 0.5.0)"
    CARGO_TARGET_DIR="${XDG_CACHE_HOME:-$HOME/.cache}/edgeattest/ear-interop" \
      cargo install --quiet --locked --force --path pkg-config/ear-interop --root "$EAR_INTEROP_ROOT" \
      && echo "$stamp" >"$EAR_INTEROP.stamp"
  fi
fi

[[ -x /usr/bin/wasm-opt ]] && log "WARNING: /usr/bin/wasm-opt (Debian binaryen) is installed; our scripts put node_modules/.bin first so it is never used"
log "ready in ${SECONDS}s"
