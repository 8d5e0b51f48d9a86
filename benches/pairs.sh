#!/usr/bin/env bash
# Time two commands in alternating pairs (A B A B ...) and print each figure's minimum,
# median and maximum, with the ratio A/B taken pair by pair, so a comparison holds when a
# shared machine's speed drifts between runs. Needs only bash.
#
#   benches/pairs.sh [-n PAIRS] 'COMMAND A' 'COMMAND B'
#   benches/pairs.sh -n 9 'knightnet compare --board 10x10 --trials 5000 --solvers network:parberry --threads 2' \
#                         'knightnet compare --board 10x10 --trials 5000 --solvers network:parberry --threads 1'
#
# One warm-up run of each is not counted. Output goes to /dev/null. "cpu" is user + sys.
set -euo pipefail
pairs=5
if [[ ${1:-} == -n ]]; then
    pairs=$2
    shift 2
fi
if [[ $# -ne 2 || ! $pairs =~ ^[1-9][0-9]*$ ]]; then
    echo "usage: benches/pairs.sh [-n PAIRS] 'COMMAND A' 'COMMAND B' (PAIRS a whole number from 1)" >&2
    exit 2
fi

# Wall and CPU seconds of one run of $1 (split into words as the shell does).
run() {
    local TIMEFORMAT='%R %U %S' t
    # shellcheck disable=SC2086
    t=$({ time $1 > /dev/null 2>&1; } 2>&1)
    read -r wall user sys <<< "$t"
    echo "$wall $(echo "$user + $sys" | awk '{print $1 + $3}')"
}

# min median max of the numbers on stdin.
summary() {
    sort -g | awk '{v[NR] = $1} END {m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2;
        printf "%10.4f %10.4f %10.4f\n", v[1], m, v[NR]}'
}

run "$1" > /dev/null
run "$2" > /dev/null
rows=()
for ((i = 0; i < pairs; i++)); do
    read -r aw ac <<< "$(run "$1")"
    read -r bw bc <<< "$(run "$2")"
    rows+=("$aw $ac $bw $bc")
done
printf '%-12s %10s %10s %10s   (%d pairs)\n' figure min median max "$pairs"
col() { printf '%s\n' "${rows[@]}" | awk "{print $1}" | summary; }
printf '%-12s %s\n' "A wall s" "$(col '$1')"
printf '%-12s %s\n' "A cpu s" "$(col '$2')"
printf '%-12s %s\n' "B wall s" "$(col '$3')"
printf '%-12s %s\n' "B cpu s" "$(col '$4')"
printf '%-12s %s\n' "A/B wall" "$(col '$1 / $3')"
printf '%-12s %s\n' "A/B cpu" "$(col '$2 / $4')"
