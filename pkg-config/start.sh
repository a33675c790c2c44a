#!/usr/bin/env bash
# The main job: builds the release package and serves the attestation service and the
# verification page from the edge worker in workerd, on http://127.0.0.1:${EDGEATTEST_PORT:-8787}/.
#
#   bash pkg-config/start.sh
#
# Fast when nothing changed: pkg-config/build.sh builds only when an input changed (a stamp
# over the sources and tool versions, target/build-stamp), and prints which. Safe to run
# twice at once (on two EDGEATTEST_PORTs): a start holds target/start.lock through setup,
# build and the creation of the development key (serve.mjs lets it go before the server
# starts), so a second start waits, says why, then finds the build up to date.
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p target
exec 8>target/start.lock
if ! flock -n 8; then
  echo "start: another start.sh is setting up (target/start.lock); waiting for it" >&2
  flock 8
fi
SKIP_PY=1 bash pkg-config/setup.sh
bash pkg-config/build.sh
export PATH="$PWD/node_modules/.bin:$PATH"
# Development only: with its development key, the main job also trusts the edgeattest TEST PKI
# (not NVIDIA; its keys are public), so that the page's samples pass offline. A deployment
# never sets it; EDGEATTEST_TEST_PKI=off here turns it off.
if [ -z "${EDGEATTEST_SIGNING_KEY:-}" ]; then export EDGEATTEST_TEST_PKI="${EDGEATTEST_TEST_PKI:-on}"; fi
EDGEATTEST_START_LOCK_FD=8 exec node pkg-config/serve.mjs
