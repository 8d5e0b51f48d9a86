#!/usr/bin/env bash
# Remake every committed figure in plots/ (and the CSV of its data beside it) from the
# committed experiment results and from in-process runs with fixed seeds. Run from the
# repository root:  bash plots/regenerate.sh
# The commands are the ones listed in plots/README.md.
set -euo pipefail
cd "$(dirname "$0")/.."

# With the `pdf` feature: every PNG of the gallery has its PDF beside it.
cargo build --release --features pdf --quiet
kn=target/release/knightnet

# From in-process runs.
$kn solve --board 8x8 --seed 5 --png plots/tour-8x8.png --svg plots/tour-8x8.svg
$kn solve --board 12x12 --seed 5 --png plots/tour-12x12.png --svg plots/tour-12x12.svg
$kn animate --board 8x8 --seed 1 --attempt multiple-cycles --out plots/failure-8x8.png
$kn animate --board 8x8 --seed 5 --out plots/network-8x8.gif
$kn animate --board 8x8 --seed 5 --frame 3 --out plots/network-8x8-sweep3.png
$kn convergence --board 8x8 --runs 50 --seed 1 --out plots/convergence-8x8.png
$kn convergence --board 8x8 --runs 50 --seed 1 --variant takefuji-lee --out plots/convergence-8x8-takefuji-lee.png
$kn convergence --board 6x6 --runs 50 --seed 1 --variant numpy --out plots/convergence-6x6-numpy.png
$kn convergence --board 8x8 --runs 50 --seed 1 --variant parberry --overlay wikipedia --overlay numpy --out plots/convergence-8x8-presets.png
# The same figures as PDF for a paper (a second run of the same seeds: the CSVs written
# beside them are the same bytes).
$kn animate --board 8x8 --seed 1 --attempt multiple-cycles --out plots/failure-8x8.pdf
$kn animate --board 8x8 --seed 5 --frame 3 --out plots/network-8x8-sweep3.pdf
$kn convergence --board 8x8 --runs 50 --seed 1 --out plots/convergence-8x8.pdf
$kn convergence --board 8x8 --runs 50 --seed 1 --variant takefuji-lee --out plots/convergence-8x8-takefuji-lee.pdf
$kn convergence --board 6x6 --runs 50 --seed 1 --variant numpy --out plots/convergence-6x6-numpy.pdf
$kn convergence --board 8x8 --runs 50 --seed 1 --variant parberry --overlay wikipedia --overlay numpy --out plots/convergence-8x8-presets.pdf

# From the committed experiment records (figures a spec's records do not support are
# skipped, and the command says which and why).
published=experiments/published/parberry-1996.csv
for name in parberry-1996 variants-8x8 quickstart network-vs-classical merge takefuji-lee-1992 open-tours beyond-the-knight; do
    results=experiments/results/$name
    [ -f "$results/records.csv" ] || { echo "skipping $name: no $results/records.csv" >&2; continue; }
    rm -f plots/"$name"/*.png plots/"$name"/*.pdf plots/"$name"/*.csv
    extra=()
    if [ "$name" = parberry-1996 ] && [ -f "$published" ]; then
        extra=(--published "$published")
    fi
    if [ "$name" = beyond-the-knight ]; then
        extra=(--hf experiments/hf-counts-beyond.csv)
    fi
    # PNG for the README, PDF (vector, bundled font) for a paper; the CSV beside both.
    $kn plot "$results" --out plots/"$name" "${extra[@]}"
    $kn plot "$results" --out plots/"$name" --format pdf "${extra[@]}" > /dev/null
done

# Tours among settled attempts against H/F (issue 18): only the hf-ratio figure of that
# run is kept (the others are drawn into a scratch folder and dropped).
results=experiments/results/hf-ratio
if [ -f "$results/records.csv" ]; then
    scratch=out/plots/hf-ratio
    rm -rf "$scratch" plots/hf-ratio
    mkdir -p plots/hf-ratio
    $kn plot "$results" --out "$scratch" --hf experiments/hf-counts.csv > /dev/null
    $kn plot "$results" --out "$scratch" --hf experiments/hf-counts.csv --format pdf > /dev/null
    cp "$scratch"/hf-ratio.png "$scratch"/hf-ratio.pdf "$scratch"/hf-ratio.csv plots/hf-ratio/
else
    echo "skipping hf-ratio: no $results/records.csv" >&2
fi

# The C x S sweep: the same figures plus its phase diagram, run-length distributions and
# failure anatomy (plot draws them for any results folder that supports them).
results=experiments/results/sweep-cs
if [ -f "$results/records.csv" ]; then
    rm -f plots/sweep-cs/*.png plots/sweep-cs/*.pdf plots/sweep-cs/*.csv
    $kn plot "$results" --out plots/sweep-cs
    $kn plot "$results" --out plots/sweep-cs --format pdf > /dev/null
else
    echo "skipping sweep-cs: no $results/records.csv" >&2
fi
