#!/usr/bin/env bash
# Re-fetch the vendored charting library of the Results view (uPlot, MIT: uPlot.LICENSE)
# from the npm registry at the pinned version, check the package's and each file's
# sha256, and copy the built files here. Needs npm (only to fetch; nothing runs Node).
# Usage: bash src/serve/assets/vendor/fetch.sh
set -euo pipefail
VERSION=1.6.32
TARBALL_SHA256=4b8a8191e425658e3ea8c8c1314b0fc679c861ee3a1af2b20c7b16ba50b5133d
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
(cd "$work" && npm pack --silent "uplot@$VERSION" >/dev/null)
echo "$TARBALL_SHA256  $work/uplot-$VERSION.tgz" | sha256sum --check --quiet
tar -xzf "$work/uplot-$VERSION.tgz" -C "$work"
cp "$work/package/dist/uPlot.iife.min.js" "$work/package/dist/uPlot.min.css" "$here/"
cp "$work/package/LICENSE" "$here/uPlot.LICENSE"
(cd "$here" && sha256sum --check --quiet <<'SUMS'
19c8d4c6ad88929a79f4ae49d6f7161566dfd0ba3d15cc495e974f787eb78f1f  uPlot.iife.min.js
df630c6a8d6f8eeaff264b50f73ce5b114f646ffd9a0bb74f049b0a00135fa04  uPlot.min.css
8f989229699b4fe2f1a0432d0e9edc338a8a911e250e2d1b01ecd770a5f5b1bd  uPlot.LICENSE
SUMS
)
echo "uPlot $VERSION vendored in $here"
