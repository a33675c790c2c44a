#!/usr/bin/env bash
# The main job: builds the release package and serves the attestation service and the
# verification page from the edge worker in workerd, on http://127.0.0.1:${EDGEATTEST_PORT:-8787}/.
#
#   bash pkg-config/start.sh
set -euo pipefail
cd "$(dirname "$0")/.."
SKIP_PY=1 bash pkg-config/setup.sh
bash pkg-config/build.sh
export PATH="$PWD/node_modules/.bin:$PATH"
exec node pkg-config/serve.mjs
