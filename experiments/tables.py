"""Print the Markdown tables of experiments/README.md from the committed summary.json files.

Usage: python3 experiments/tables.py   (from the repository root; standard library only)
"""
import csv
import json
import math
import statistics

# Parberry (1996), Table 1: success %, failure %, diverge %, CPU time per tour.
PARBERRY = {6: (30.5, 68.0, 1.7, '0.08 s'), 8: (19.4, 78.7, 1.9, '0.4 s'), 10: (13.4, 84.1, 2.5, '1.6 s'),
            12: (7.0, 89.7, 3.4, '6.6 s'), 14: (3.5, 92.0, 4.5, '25.5 s'), 16: (1.5, 93.1, 5.4, '1.8 min'),
            18: (0.7, 93.2, 6.0, '6.4 min'), 20: (0.3, 92.6, 7.1, '20.9 min'), 22: (0.1, 92.0, 7.9, '1.7 hr'),
            24: (0.03, 90.9, 9.1, '10.4 hr'), 26: (0.003, 88.9, 11.1, '5.5 day')}
REFERENCE = {'parberry': '22.6 [22.1, 23.2] (independent Python); Parberry 1996: 19.4',
             'brant': '23.2 [22.0, 24.4] (Brant C++)', 'takefuji-lee': '0.05 (synchronous, independent Python)',
             'numpy': '0.48 (the blog code)', 'wikipedia': '0', 'parberry-square-sweep': '–'}


def t(ns):
    if ns is None:
        return '–'
    s = ns / 1e9
    if s >= 60:
        return f'{s / 60:.1f} min'
    if s >= 1:
        return f'{s:.2f} s'
    if s >= 1e-3:
        return f'{s * 1e3:.2f} ms'
    return f'{s * 1e6:.0f} µs'


def pct(x):
    v = x * 100
    return f'{v:.2f}' if 0 < v < 1 else f'{v:.1f}'


def oc(cell, name):
    return next(o for o in cell['outcomes'] if o['outcome'] == name)


def load(name):
    return json.load(open(f'experiments/results/{name}/summary.json'))


def wilson(k, n, z=1.96):
    p = k / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return c - h, c + h


def quickstart():
    """Per preset: tour rate and attempts per tour, from the records. Mean attempts per
    tour = trials / tours (every attempt counts, including the failed ones after the last
    tour), as in summary.md. Consecutive trials of a cell are independent attempts, so the
    runs of attempts ending in a tour are what `solve` (restart until a tour) would see;
    the median is taken over those runs."""
    rows = list(csv.DictReader(open('experiments/results/quickstart/records.csv')))
    cells = {}
    for r in rows:
        if r['solver'].startswith('network'):
            cells.setdefault((int(r['cell']), r['label'], r['board']), []).append(r)
    print("### `results/quickstart`: network presets, attempts per tour\n")
    print("| preset | board | attempts | tours | p(tour) % [95% CI] | median attempts per tour | mean attempts per tour |")
    print("|---|---|---:|---:|---|---:|---:|")
    for (_, label, board), rs in sorted(cells.items()):
        rs.sort(key=lambda r: int(r['trial']))
        n, k = len(rs), sum(r['outcome'] == 'tour' for r in rs)
        runs, cur = [], 0
        for r in rs:
            cur += 1
            if r['outcome'] == 'tour':
                runs.append(cur)
                cur = 0
        lo, hi = wilson(k, n)
        med = f"{statistics.median(runs):g}" if runs else "–"
        mean = f"{n / k:.2f}" if k else "–"
        print(f"| {label} | {board} | {n} | {k} | {100 * k / n:.2f} [{100 * lo:.2f}, {100 * hi:.2f}] | {med} | {mean} |")
    print()


def main():
    quickstart()
    d = load('parberry-1996')
    print("### Parberry (1996) Table 1 vs `results/parberry-1996` (preset `parberry`)\n")
    print("| n | trials | tours | success % [95% CI] | Parberry | failure % | Parberry | diverge % [95% CI] "
          "| Parberry | mean sweeps | time per tour | Parberry (SPARCstation 2) |")
    print("|---|---:|---:|---|---:|---:|---:|---|---:|---:|---:|---:|")
    for c in d['cells']:
        if c['label'] != 'parberry':
            continue
        n = int(c['board'].split('x')[0])
        p = PARBERRY[n]
        tr, cap = oc(c, 'tour'), oc(c, 'iteration-cap')
        fail = oc(c, 'multiple-cycles')['share'] + oc(c, 'stable-not-degree-two')['share']
        print(f"| {n} | {c['trials']:,} | {c['tours']:,} | {pct(tr['share'])} [{pct(tr['ci_low'])}, "
              f"{pct(tr['ci_high'])}] | {p[0]} | {fail * 100:.1f} | {p[1]} | {cap['share'] * 100:.1f} "
              f"[{cap['ci_low'] * 100:.1f}, {cap['ci_high'] * 100:.1f}] | {p[2]} | {c['iterations_mean']:.0f} "
              f"| {t(c['time_per_tour_ns'])} | {p[3]} |")
    print("\nThe same rule with the `square-sweep` order (each square updates every move out of it, "
          "so each neuron twice per sweep):\n")
    print("| n | trials | success % [95% CI] | diverge % [95% CI] | mean sweeps |")
    print("|---|---:|---|---|---:|")
    for c in d['cells']:
        if c['label'] != 'parberry-square-sweep':
            continue
        tr, cap = oc(c, 'tour'), oc(c, 'iteration-cap')
        print(f"| {c['board'].split('x')[0]} | {c['trials']:,} | {pct(tr['share'])} [{pct(tr['ci_low'])}, "
              f"{pct(tr['ci_high'])}] | {cap['share'] * 100:.2f} [{cap['ci_low'] * 100:.2f}, "
              f"{cap['ci_high'] * 100:.2f}] | {c['iterations_mean']:.0f} |")

    d = load('variants-8x8')
    print("\n### `results/variants-8x8`\n")
    print("| preset | attempts | tours | p(tour) % [95% CI] | multiple cycles % | iteration cap % | mean sweeps "
          "| reference |")
    print("|---|---:|---:|---|---:|---:|---:|---|")
    for c in d['cells']:
        tr = oc(c, 'tour')
        print(f"| {c['label']} | {c['trials']:,} | {c['tours']:,} | {pct(tr['share'])} [{pct(tr['ci_low'])}, "
              f"{pct(tr['ci_high'])}] | {oc(c, 'multiple-cycles')['share'] * 100:.1f} | "
              f"{oc(c, 'iteration-cap')['share'] * 100:.1f} | {c['iterations_mean']:.0f} | "
              f"{REFERENCE.get(c['label'], '–')} |")

    d = load('takefuji-lee-1992')
    print("\n### `results/takefuji-lee-1992`\n")
    print("| reading | board | attempts | tours | p(tour) % [95% CI] | median sweeps | mean sweeps |")
    print("|---|---|---:|---:|---|---:|---:|")
    for c in d['cells']:
        tr = oc(c, 'tour')
        print(f"| {c['label']} | {c['board']} | {c['trials']} | {c['tours']} | {pct(tr['share'])} "
              f"[{pct(tr['ci_low'])}, {pct(tr['ci_high'])}] | {c['iterations_median']:g} | "
              f"{c['iterations_mean']:.0f} |")

    d = load('merge')
    print("\n### `results/merge` (one trial = one solve; Warnsdorff: open tours from random starts)\n")
    print("| cells | boards | trials | tours | time per tour (range over boards) |")
    print("|---|---|---:|---:|---|")
    groups = {}
    for c in d['cells']:
        groups.setdefault(c['label'], []).append(c)
    for label, cells in groups.items():
        times = [c['time_per_tour_ns'] for c in cells if c['time_per_tour_ns']]
        print(f"| {label} | {cells[0]['board']} … {cells[-1]['board']} ({len(cells)} boards) | "
              f"{sum(c['trials'] for c in cells):,} | {sum(c['tours'] for c in cells):,} | "
              f"{t(min(times))} – {t(max(times))} |")


if __name__ == '__main__':
    main()
