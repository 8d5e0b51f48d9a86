"""Write the named graphs of experiments/graphs/ from their published constructions.

Run from the repository root:  python3 experiments/graphs/make.py
Pure Python 3, no packages. Vertices are numbered from 1 in every file. README.md in this
folder says which construction each graph comes from and cites it; the Rust tests
(tests/library/graph_file.rs) read the files and check their sizes, degrees, girth and
Hamiltonian-cycle counts by exhaustive search.
"""

from itertools import combinations
from pathlib import Path

HERE = Path(__file__).resolve().parent


def petersen():
    """The Kneser graph K(5,2): the 2-subsets of {1..5} (in lexicographic order),
    adjacent when disjoint."""
    pairs = list(combinations(range(1, 6), 2))
    return len(pairs), [
        (i, j)
        for i, j in combinations(range(len(pairs)), 2)
        if not set(pairs[i]) & set(pairs[j])
    ]


def dodecahedron():
    """The generalized Petersen graph GP(10, 2): an outer 10-cycle u0..u9, spokes
    u_i - v_i, and inner edges v_i - v_(i+2). u_i is vertex i, v_i is vertex 10 + i."""
    edges = []
    for i in range(10):
        edges.append((i, (i + 1) % 10))
        edges.append((i, 10 + i))
        edges.append((10 + i, 10 + (i + 2) % 10))
    return 20, edges


def heawood():
    """The incidence graph of the Fano plane: points 0..6, lines L_j = {j, j+1, j+3}
    (mod 7, the difference set {0, 1, 3}); point p is vertex p, line L_j is vertex 7 + j."""
    return 14, [(p, 7 + j) for j in range(7) for p in ((j + d) % 7 for d in (0, 1, 3))]


def tutte_fragment(base):
    """Tutte's fragment on vertices base..base+14: a 9-cycle o0..o8, a pentagon p0..p4,
    and a vertex h joined to o1, o8 and p0; the other pentagon vertices join the 9-cycle
    (p4 - o2, p3 - o4, p2 - o6, p1 - o7). o0, o3 and o5 have degree 2 in the fragment:
    they are where it attaches. Returns (edges, (o0, o3, o5))."""
    o = [base + i for i in range(9)]
    p = [base + 9 + i for i in range(5)]
    h = base + 14
    edges = [(o[i], o[(i + 1) % 9]) for i in range(9)]
    edges += [(p[i], p[(i + 1) % 5]) for i in range(5)]
    edges += [(h, o[1]), (h, o[8]), (h, p[0])]
    edges += [(p[4], o[2]), (p[3], o[4]), (p[2], o[6]), (p[1], o[7])]
    return edges, (o[0], o[3], o[5])


def tutte():
    """Tutte's 1946 graph: the tetrahedron with three of its vertices each replaced by a
    Tutte fragment. Vertex 0 is the fourth (central) vertex; fragment k holds vertices
    1 + 15k .. 15 + 15k. Each fragment's o0 joins the centre, and the o3 of fragment k
    joins the o5 of fragment k + 1 (mod 3)."""
    edges = []
    ends = []
    for k in range(3):
        e, attach = tutte_fragment(1 + 15 * k)
        edges += e
        ends.append(attach)
    for k in range(3):
        edges.append((0, ends[k][0]))
        edges.append((ends[k][1], ends[(k + 1) % 3][2]))
    return 46, edges


def hypercube(d):
    """The d-dimensional hypercube Q_d: the 2^d binary words, adjacent when they differ in
    one bit; word w is vertex w."""
    n = 1 << d
    return n, [(w, w ^ (1 << b)) for w in range(n) for b in range(d) if w < w ^ (1 << b)]


def generalized_petersen(n, k):
    """The generalized Petersen graph GP(n, k): an outer n-cycle u_i, spokes u_i - v_i,
    inner edges v_i - v_(i+k). u_i is vertex i, v_i is vertex n + i."""
    edges = []
    for i in range(n):
        edges.append((i, (i + 1) % n))
        edges.append((i, n + i))
        edges.append((n + i, n + (i + k) % n))
    return 2 * n, edges


def canonical(n, edges):
    out = sorted((min(a, b), max(a, b)) for a, b in edges)
    assert len(set(out)) == len(out) and all(a != b and b < n for a, b in out)
    return out


def hcp(name, comment, n, edges, adj_list=False):
    lines = [
        f"NAME : {name}",
        f"COMMENT : {comment}",
        "TYPE : HCP",
        f"DIMENSION : {n}",
        f"EDGE_DATA_FORMAT : {'ADJ_LIST' if adj_list else 'EDGE_LIST'}",
        "EDGE_DATA_SECTION",
    ]
    if adj_list:
        for v in range(n):
            higher = [b + 1 for a, b in edges if a == v]
            if higher:
                lines.append(" ".join(str(x) for x in [v + 1, *higher, -1]))
    else:
        lines += [f"{a + 1} {b + 1}" for a, b in edges]
    lines += ["-1", "EOF"]
    return "\n".join(lines) + "\n"


def dimacs(comment, n, edges):
    lines = [f"c {comment}", f"p edge {n} {len(edges)}"]
    lines += [f"e {a + 1} {b + 1}" for a, b in edges]
    return "\n".join(lines) + "\n"


def main():
    n, e = petersen()
    (HERE / "petersen.dimacs").write_text(
        dimacs("Petersen graph: the Kneser graph K(5,2); no Hamiltonian cycle", n, canonical(n, e))
    )
    n, e = dodecahedron()
    (HERE / "dodecahedron.hcp").write_text(
        hcp("dodecahedron", "the generalized Petersen graph GP(10,2); 30 Hamiltonian cycles", n, canonical(n, e))
    )
    n, e = heawood()
    (HERE / "heawood.hcp").write_text(
        hcp("heawood", "incidence graph of the Fano plane; 24 Hamiltonian cycles", n, canonical(n, e), adj_list=True)
    )
    n, e = tutte()
    (HERE / "tutte.hcp").write_text(
        hcp("tutte", "Tutte (1946): three Tutte fragments; no Hamiltonian cycle", n, canonical(n, e))
    )

    n, e = hypercube(10)
    (HERE / "hypercube-10.hcp").write_text(
        hcp("hypercube-10", "the 10-cube Q10: 1024 ten-bit words, adjacent when one bit differs; Hamiltonian (a Gray code)", n, canonical(n, e))
    )
    n, e = generalized_petersen(500, 2)
    (HERE / "petersen-500-2.hcp").write_text(
        hcp("petersen-500-2", "the generalized Petersen graph GP(500,2); Hamiltonian (Alspach 1983: 500 is not 5 mod 6)", n, canonical(n, e))
    )


if __name__ == "__main__":
    main()
