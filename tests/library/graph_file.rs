//! Graph files ([`knightnet::graph_file`]): the named graphs of `experiments/graphs/`
//! against their published sizes, degrees, girths, diameters and Hamiltonian-cycle
//! counts (by an exhaustive search written here), and properties over generated graphs
//! and bytes: every simple graph written in each format reads back as itself, and no
//! input makes the reader panic.

use std::collections::VecDeque;
use std::path::PathBuf;

use knightnet::error::{Error, InputError};
use knightnet::graph_file::{EdgeData, FileGraph, Format};
use proptest::prelude::*;

/// Neighbour lists of a graph.
fn adjacency(g: &FileGraph) -> Vec<Vec<u32>> {
    let mut adj = vec![Vec::new(); g.vertices() as usize];
    for &(a, b) in g.edges() {
        adj[a as usize].push(b);
        adj[b as usize].push(a);
    }
    adj
}

/// The number of Hamiltonian cycles (each counted once, whichever way round and wherever
/// it starts): every path from vertex 0 is extended, and the count of those that close
/// is halved (each cycle is found once in each direction). Two sound prunings keep the
/// Tutte graph fast: a vertex not yet on the path needs two neighbours it can still use
/// (vertices off the path, the path's end, or vertex 0, where the cycle closes), and the
/// vertices off the path together with the two ends must be connected.
fn hamiltonian_cycles(g: &FileGraph) -> u64 {
    let adj = adjacency(g);
    let n = adj.len();
    if n < 3 {
        return 0;
    }
    let mut on_path = vec![false; n];
    on_path[0] = true;
    let mut found = 0;
    extend(&adj, &mut on_path, 0, 1, &mut found);
    found / 2
}

fn extend(adj: &[Vec<u32>], on_path: &mut [bool], end: usize, len: usize, found: &mut u64) {
    let n = adj.len();
    if len == n {
        if adj[end].contains(&0) {
            *found += 1;
        }
        return;
    }
    for &next in &adj[end] {
        let next = next as usize;
        if on_path[next] {
            continue;
        }
        on_path[next] = true;
        if viable(adj, on_path, end, next) {
            extend(adj, on_path, next, len + 1, found);
        }
        on_path[next] = false;
    }
}

/// Whether the path ending at `end` (having just left `was_end`) may still become a
/// Hamiltonian cycle: the two prunings of [`hamiltonian_cycles`].
fn viable(adj: &[Vec<u32>], on_path: &[bool], was_end: usize, end: usize) -> bool {
    let usable = |w: usize| !on_path[w] || w == end || w == 0;
    // Only the vertices next to the old end lost a usable neighbour.
    for &u in &adj[was_end] {
        let u = u as usize;
        if !on_path[u] && adj[u].iter().filter(|&&w| usable(w as usize)).count() < 2 {
            return false;
        }
    }
    // Off-path vertices, the end and vertex 0 are connected through each other.
    let mut seen = on_path.to_vec();
    seen[end] = false;
    seen[0] = false;
    let left = seen.iter().filter(|&&s| !s).count();
    let mut queue = VecDeque::from([end]);
    seen[end] = true;
    let mut reached = 1;
    while let Some(v) = queue.pop_front() {
        for &w in &adj[v] {
            let w = w as usize;
            if !seen[w] {
                seen[w] = true;
                reached += 1;
                queue.push_back(w);
            }
        }
    }
    reached == left
}

/// The length of a shortest cycle and the largest distance between two vertices, by a
/// breadth-first search from every vertex.
fn girth_and_diameter(g: &FileGraph) -> (usize, usize) {
    let adj = adjacency(g);
    let n = adj.len();
    let (mut girth, mut diameter) = (usize::MAX, 0);
    for s in 0..n {
        let mut dist = vec![usize::MAX; n];
        let mut parent = vec![usize::MAX; n];
        dist[s] = 0;
        let mut queue = VecDeque::from([s]);
        while let Some(v) = queue.pop_front() {
            for &w in &adj[v] {
                let w = w as usize;
                if dist[w] == usize::MAX {
                    dist[w] = dist[v] + 1;
                    parent[w] = v;
                    queue.push_back(w);
                } else if parent[v] != w {
                    girth = girth.min(dist[v] + dist[w] + 1);
                }
            }
        }
        assert!(dist.iter().all(|&d| d != usize::MAX), "connected");
        diameter = diameter.max(*dist.iter().max().unwrap());
    }
    (girth, diameter)
}

fn named(file: &str) -> FileGraph {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("experiments/graphs")
        .join(file);
    FileGraph::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn the_search_counts_small_graphs_right() {
    let complete =
        |n: u32| FileGraph::new(n, (0..n).flat_map(|a| (a + 1..n).map(move |b| (a, b)))).unwrap();
    // (n - 1)! / 2 Hamiltonian cycles in the complete graph K_n.
    assert_eq!(hamiltonian_cycles(&complete(3)), 1);
    assert_eq!(hamiltonian_cycles(&complete(4)), 3);
    assert_eq!(hamiltonian_cycles(&complete(5)), 12);
    assert_eq!(hamiltonian_cycles(&complete(6)), 60);
    let cycle = FileGraph::new(7, (0..7).map(|i| (i, (i + 1) % 7))).unwrap();
    assert_eq!(hamiltonian_cycles(&cycle), 1);
    // K_{3,3}: 3! * 2! / 2 = 6.
    let k33 = FileGraph::new(6, (0..3).flat_map(|a| (3..6).map(move |b| (a, b)))).unwrap();
    assert_eq!(hamiltonian_cycles(&k33), 6);
    let path = FileGraph::new(4, [(0, 1), (1, 2), (2, 3)]).unwrap();
    assert_eq!(hamiltonian_cycles(&path), 0);
}

/// Each named graph: file, format, vertices, edges, girth, diameter, Hamiltonian cycles
/// (experiments/graphs/README.md cites each number).
const NAMED: [(&str, Format, u32, usize, usize, usize, u64); 4] = [
    ("petersen.dimacs", Format::Dimacs, 10, 15, 5, 2, 0),
    (
        "dodecahedron.hcp",
        Format::Hcp(EdgeData::EdgeList),
        20,
        30,
        5,
        5,
        30,
    ),
    (
        "heawood.hcp",
        Format::Hcp(EdgeData::AdjList),
        14,
        21,
        6,
        3,
        24,
    ),
    (
        "tutte.hcp",
        Format::Hcp(EdgeData::EdgeList),
        46,
        69,
        4,
        8,
        0,
    ),
];

#[test]
fn the_named_graphs_have_their_published_sizes_and_shapes() {
    for (file, format, vertices, edges, girth, diameter, _) in NAMED {
        let g = named(file);
        assert_eq!(g.format(), Some(format), "{file}");
        assert_eq!((g.vertices(), g.edges().len()), (vertices, edges), "{file}");
        assert!(g.degrees().iter().all(|&d| d == 3), "{file} is cubic");
        assert_eq!(girth_and_diameter(&g), (girth, diameter), "{file}");
        if let Format::Hcp(_) = format {
            assert_eq!(g.name(), Some(file.trim_end_matches(".hcp")));
        }
    }
}

/// The two large named graphs, too large to count their Hamiltonian cycles: file,
/// vertices, edges, degree of every vertex, girth. The 10-cube Q10 has diameter 10;
/// the generalized Petersen graph GP(500, 2) has 5-cycles (u_i, u_i+1, u_i+2, v_i+2,
/// v_i) and no shorter ones.
const LARGE: [(&str, u32, usize, u32, usize); 2] = [
    ("hypercube-10.hcp", 1024, 5120, 10, 4),
    ("petersen-500-2.hcp", 1000, 1500, 3, 5),
];

#[test]
fn the_large_named_graphs_have_their_sizes_and_shapes() {
    for (file, vertices, edges, degree, girth) in LARGE {
        let g = named(file);
        assert_eq!(g.format(), Some(Format::Hcp(EdgeData::EdgeList)), "{file}");
        assert_eq!((g.vertices(), g.edges().len()), (vertices, edges), "{file}");
        assert!(g.degrees().iter().all(|&d| d == degree), "{file}");
        let (g_girth, diameter) = girth_and_diameter(&g);
        assert_eq!(g_girth, girth, "{file}");
        if file.starts_with("hypercube") {
            assert_eq!(diameter, 10);
        }
        assert_eq!(g.name(), Some(file.trim_end_matches(".hcp")));
    }
}

#[test]
fn the_named_graphs_have_their_published_hamiltonian_cycle_counts() {
    for (file, .., cycles) in NAMED {
        let start = std::time::Instant::now();
        assert_eq!(hamiltonian_cycles(&named(file)), cycles, "{file}");
        eprintln!(
            "{file}: {cycles} Hamiltonian cycles in {:?}",
            start.elapsed()
        );
    }
}

#[test]
fn reading_a_path_refuses_what_is_not_a_regular_file() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("experiments/graphs");
    let e = FileGraph::read(&dir).unwrap_err();
    assert!(matches!(e, Error::Input(InputError::File(_))), "{e}");
    assert!(e.to_string().contains("not a regular file"), "{e}");
    let e = FileGraph::read(&dir.join("none.hcp")).unwrap_err();
    assert!(matches!(e, Error::Input(InputError::File(_))), "{e}");
}

/// A simple graph of 1 to 30 vertices: random pairs, self-loops and repeats dropped.
fn simple_graph() -> impl Strategy<Value = FileGraph> {
    (1u32..30).prop_flat_map(|n| {
        prop::collection::vec((0..n, 0..n), 0..80).prop_map(move |pairs| {
            let mut edges: Vec<(u32, u32)> = pairs
                .into_iter()
                .filter(|(a, b)| a != b)
                .map(|(a, b)| (a.min(b), a.max(b)))
                .collect();
            edges.sort_unstable();
            edges.dedup();
            FileGraph::new(n, edges).unwrap()
        })
    })
}

/// The TSPLIB HCP text of `g` with each edge given from both ends (`ADJ_LIST`), in
/// the tolerated header spellings `KEY: value` and `KEY value`, CRLF line breaks and
/// no EOF line.
fn symmetric_adj_list(g: &FileGraph) -> String {
    let adj = adjacency(g);
    let mut s = format!(
        "NAME: x\r\nTYPE HCP\r\nDIMENSION: {}\r\nEDGE_DATA_FORMAT: ADJ_LIST\r\nEDGE_DATA_SECTION\r\n",
        g.vertices()
    );
    for (v, ws) in adj.iter().enumerate() {
        if !ws.is_empty() {
            s.push_str(&format!(" {}", v + 1));
            for w in ws {
                s.push_str(&format!("  {}", w + 1));
            }
            s.push_str(" -1\r\n");
        }
    }
    s.push_str("-1\r\n");
    s
}

/// Whatever `parse` gives for `text`: a graph, or a one-line refusal naming `origin`.
fn check_outcome(text: &[u8]) -> Result<(), TestCaseError> {
    match FileGraph::from_bytes(text, "f") {
        Ok(g) => {
            prop_assert!(g.edges().windows(2).all(|w| w[0] < w[1]));
            prop_assert!(g.edges().iter().all(|&(a, b)| a < b && b < g.vertices()));
        }
        Err(e) => {
            let msg = e.to_string();
            prop_assert!(!msg.contains('\n'), "{msg}");
            prop_assert!(
                msg.starts_with("f") || msg.starts_with("out of memory"),
                "{msg}"
            );
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// Every simple graph written in each format reads back as itself (a plain edge list
    /// as its vertices up to the last with an edge: it does not say how many there are).
    #[test]
    fn every_format_reads_back_what_is_written(g in simple_graph()) {
        for format in [
            Format::Hcp(EdgeData::EdgeList),
            Format::Hcp(EdgeData::AdjList),
            Format::Dimacs,
        ] {
            let back = FileGraph::parse(&g.write(format), "w").unwrap();
            prop_assert_eq!(back.vertices(), g.vertices());
            prop_assert_eq!(back.edges(), g.edges());
            prop_assert_eq!(back.format(), Some(format));
        }
        let back = FileGraph::parse(&symmetric_adj_list(&g), "w").unwrap();
        prop_assert_eq!(back.edges(), g.edges());
        prop_assert_eq!(back.vertices(), g.vertices());
        let plain = FileGraph::parse(&g.write(Format::EdgeList), "w");
        match g.edges().iter().map(|&(_, b)| b).max() {
            Some(last) => {
                let back = plain.unwrap();
                prop_assert_eq!(back.vertices(), last + 1);
                prop_assert_eq!(back.edges(), g.edges());
            }
            None => prop_assert!(plain.is_err()),
        }
    }

    /// Arbitrary bytes never make the reader panic: it returns a checked simple graph or
    /// a one-line refusal.
    #[test]
    fn arbitrary_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..400)) {
        check_outcome(&bytes)?;
    }

    /// Nor do valid files with bytes changed, inserted or cut (which reach the checks
    /// past the first line).
    #[test]
    fn damaged_files_never_panic(
        g in simple_graph(),
        format in prop_oneof![
            Just(Format::Hcp(EdgeData::EdgeList)),
            Just(Format::Hcp(EdgeData::AdjList)),
            Just(Format::Dimacs),
            Just(Format::EdgeList),
        ],
        edits in prop::collection::vec((any::<prop::sample::Index>(), any::<u8>(), 0u8..3), 1..6),
    ) {
        let mut bytes = g.write(format).into_bytes();
        for (at, byte, kind) in edits {
            let i = at.index(bytes.len() + 1);
            match kind {
                0 if i < bytes.len() => bytes[i] = byte,
                1 => bytes.insert(i, byte),
                _ => bytes.truncate(i),
            }
        }
        check_outcome(&bytes)?;
    }

    /// Nor do lines made of the formats' own words and numbers.
    #[test]
    fn lines_of_format_words_never_panic(
        lines in prop::collection::vec(
            prop::collection::vec(
                prop::sample::select(vec![
                    "NAME", ":", "TYPE", "HCP", "DIMENSION", "EDGE_DATA_FORMAT", "EDGE_LIST",
                    "ADJ_LIST", "EDGE_DATA_SECTION", "EOF", "-1", "0", "1", "2", "3",
                    "4294967295", "4294967296", "18446744073709551616", "c", "p", "e",
                    "edge", "#", "-", "+2", "\u{feff}",
                ]),
                0..5,
            ),
            0..12,
        ),
    ) {
        let text: Vec<String> = lines.iter().map(|l| l.join(" ")).collect();
        check_outcome(text.join("\n").as_bytes())?;
    }
}
