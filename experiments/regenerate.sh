#!/usr/bin/env bash
# Rerun every committed experiment into experiments/results/ from a clean, committed tree,
# so that each run.json records the revision the results came from and git_dirty false.
# Run from the repository root:  bash experiments/regenerate.sh
# Each spec runs into out/results/NAME (ignored by git, so the tree stays clean while it
# runs) and then replaces experiments/results/NAME. Afterwards: python3
# experiments/tables.py prints the README tables, and bash plots/regenerate.sh redraws
# the figures.
#
# With --summaries, no trial is rerun: each committed folder is resumed (its records kept
# byte for byte) so that its summaries and run.json are rewritten by the current code, for
# when the summary code changed but the engine did not (same ENGINE_VERSION).
set -euo pipefail
cd "$(dirname "$0")/.."
mode=all
if [ "${1:-}" = --summaries ]; then
    mode=summaries
elif [ -n "${1:-}" ]; then
    echo "usage: bash experiments/regenerate.sh [--summaries]" >&2
    exit 2
fi

if [ -n "$(git status --porcelain --untracked-files=no)" ]; then
    echo "commit or stash your changes first: results must come from a committed tree" >&2
    exit 2
fi

cargo build --release --quiet
kn=target/release/knightnet
rm -rf out/results
mkdir -p out/results

run() { # NAME [SPEC]
    local name=$1
    shift
    local start=$SECONDS
    if [ "$mode" = summaries ]; then
        # Resume the committed folder: no trial runs, the summaries and run.json are
        # rewritten from the records, which must come back byte for byte.
        cp -r "experiments/results/$name" "out/results/$name"
        "$kn" experiment "$@" --resume --out "out/results/$name" --quiet
        cmp "experiments/results/$name/records.csv" "out/results/$name/records.csv"
    else
        "$kn" experiment "$@" --out "out/results/$name" --quiet
    fi
    echo "$name: $((SECONDS - start)) s"
}

run quickstart
for spec in takefuji-lee-1992 parberry-1996 variants-8x8 network-vs-classical merge sweep-cs open-tours hf-ratio beyond-the-knight; do
    run "$spec" "experiments/$spec.toml"
done

for dir in out/results/*/; do
    name=$(basename "$dir")
    rm -rf "experiments/results/$name"
    cp -r "$dir" "experiments/results/$name"
done
echo "experiments/results/ regenerated; review with git diff --stat, then commit"
