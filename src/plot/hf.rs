//! Does the network favour tours? Its fixed points with every square at degree 2 are the
//! 2-factors of the knight's graph, and the tours are the 2-factors that are one cycle,
//! so a network landing on a uniformly random 2-factor would end in a tour in a share H/F
//! of its settled degree-2 attempts (H closed tours, F 2-factors). This figure draws, per
//! board, each network preset's **settled tour share** — tours among the attempts that
//! stopped at a degree-2 cover (`tour` + `multiple-cycles`; attempts at the iteration cap
//! and stable states off degree 2 are left out) — with its Wilson 95% interval, beside
//! H/F, on a log axis.
//!
//! H and F come from a counts file (`plot --hf FILE`): a CSV with columns `board`,
//! `closed_tours`, `two_factors`, `closed_tours_source` (`knightnet`, or the citation of
//! a count taken from the literature, whose H/F is drawn in grey) and the `command` that
//! made the row; `#` lines are comments. Optional columns `surface` (`plane`,
//! `cylinder`, `torus`) and `leaper` (`R,S`) name boards other than the knight's whole
//! plane board (e.g. `experiments/hf-counts-beyond.csv`); absent or empty, the knight on
//! the plane, whose H/F also serves its transpose. A row serves the network groups of
//! its board and geometry; where the series on one board have different geometries, each
//! point gets its own H/F mark.

use std::path::Path;

use plotters::coord::Shift;
use plotters::prelude::*;

use super::board::{Mark, legend_below};
use super::csv_input::CsvInput;
use super::data::{Group, Place, Share, board_key, spec_order};
use super::palette::{self, INK};
use super::panel::{cartesian, interval_bar, mesh};
use super::table::{Table, csv_path, num};
use super::{DrawResult, Figure, axes, de, heading, render, trials_phrase};
use crate::board::Board;
use crate::error::{InputError, Param};
use crate::geometry::{Leaper, Surface};

/// The `closed_tours_source` of a count knightnet made.
pub const KNIGHTNET: &str = "knightnet";

/// H and F of one board, and where they came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CountRow {
    /// The board (on the knight's plane, its transpose has the same counts).
    pub board: Board,
    /// How the moves differ from the knight's on the plane (`cylinder`), in the words of
    /// the records' figures ([`super::data::geometry`]); `None` for the knight's plane
    /// board.
    pub geometry: Option<String>,
    /// H: Hamiltonian cycles (undirected closed tours).
    pub closed_tours: u128,
    /// F: 2-factors.
    pub two_factors: u128,
    /// `knightnet`, or the citation of a published H.
    pub closed_tours_source: String,
    /// The command that made the row.
    pub command: String,
}

impl CountRow {
    /// H/F (0 when F is 0: no 2-factor, so no tour either).
    pub fn ratio(&self) -> f64 {
        if self.two_factors == 0 {
            0.0
        } else {
            self.closed_tours as f64 / self.two_factors as f64
        }
    }

    /// Whether H was taken from the literature rather than counted here.
    pub fn cited(&self) -> bool {
        self.closed_tours_source != KNIGHTNET
    }
}

/// A counts file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Counts {
    /// The rows, in file order.
    pub rows: Vec<CountRow>,
}

impl Counts {
    /// The row of `board` with `geometry` (`None`: the knight's plane board, where a
    /// board's transpose serves too).
    pub fn get(&self, board: Board, geometry: Option<&str>) -> Option<&CountRow> {
        self.rows
            .iter()
            .find(|r| r.geometry.as_deref() == geometry && r.serves(board))
    }

    /// The row of a group's board and geometry; `None` for a graph.
    fn of(&self, g: &Group) -> Option<&CountRow> {
        self.get(g.place.board()?, g.geometry.as_deref())
    }
}

impl CountRow {
    /// Whether the row holds `board`'s counts: its own board, or on the knight's plane
    /// board its transpose too.
    fn serves(&self, board: Board) -> bool {
        match self.geometry {
            None => unordered(self.board) == unordered(board),
            Some(_) => self.board == board,
        }
    }
}

/// A board's sides, short side first: a board and its transpose have the same H and F.
fn unordered(b: Board) -> (usize, usize) {
    (b.rows().min(b.cols()), b.rows().max(b.cols()))
}

/// Read a counts file. Every error names the file, and the line and column.
pub fn load(path: &Path) -> Result<Counts, InputError> {
    let file = CsvInput::read(
        Param::Hf,
        path,
        "board,closed_tours,two_factors,closed_tours_source,command",
    )?;
    let (c_board, c_h, c_f) = (
        file.column("board")?,
        file.column("closed_tours")?,
        file.column("two_factors")?,
    );
    let (c_source, c_command) = (file.column("closed_tours_source")?, file.column("command")?);
    let (c_surface, c_leaper) = (
        file.optional_column("surface"),
        file.optional_column("leaper"),
    );
    let mut rows: Vec<CountRow> = Vec::new();
    for row in file.rows() {
        let board: Board = row
            .field(c_board)
            .parse()
            .map_err(|e| row.error(format!("column 'board': {e}")))?;
        let (closed_tours, two_factors): (u128, u128) = (
            row.number(c_h, "closed_tours")?,
            row.number(c_f, "two_factors")?,
        );
        if closed_tours > two_factors {
            return Err(row.error(format!(
                "closed_tours {closed_tours} exceeds two_factors {two_factors}; every closed tour is a 2-factor"
            )));
        }
        let field = |c: Option<usize>| c.map(|c| row.field(c)).filter(|t| !t.is_empty());
        let surface = field(c_surface)
            .map(|t| t.parse::<Surface>())
            .transpose()
            .map_err(|e| row.error(format!("column 'surface': {e}")))?;
        let leaper = field(c_leaper)
            .map(|t| t.parse::<Leaper>())
            .transpose()
            .map_err(|e| row.error(format!("column 'leaper': {e}")))?;
        let geometry = super::data::geometry_words(surface, leaper, false);
        if rows
            .iter()
            .any(|r| r.geometry == geometry && r.serves(board))
        {
            let on = geometry
                .as_deref()
                .map_or_else(String::new, |g| format!(" {g}"));
            return Err(row.error(format!(
                "board {board}{on} (or its transpose) is listed twice"
            )));
        }
        rows.push(CountRow {
            board,
            geometry,
            closed_tours,
            two_factors,
            closed_tours_source: row.field(c_source).to_string(),
            command: row.field(c_command).to_string(),
        });
    }
    Ok(Counts { rows })
}

/// The share of tours among a group's attempts that stopped at a degree-2 cover.
pub(crate) fn settled_tour_share(g: &Group) -> Share {
    Share::wilson(g.tours(), g.tours() + g.count("multiple-cycles"))
}

/// A drawn point: the board, the settled tour share and the counts row it is set against.
type Point<'a> = (Board, Share, &'a CountRow);

/// The settled tour share of the network groups on boards with counts, beside H/F.
#[derive(Debug, Clone)]
pub struct HfRatio {
    /// The results' name in the subtitle.
    pub source: String,
    /// Network groups on boards that have a counts row and at least one settled attempt.
    pub groups: Vec<Group>,
    /// H and F per board.
    pub counts: Counts,
}

impl HfRatio {
    /// `None` when no network group settled on a board of `counts`.
    pub fn new(source: impl Into<String>, groups: &[Group], counts: Counts) -> Option<HfRatio> {
        let groups: Vec<Group> = groups
            .iter()
            .filter(|g| g.id.is_network() && counts.of(g).is_some() && settled_tour_share(g).n > 0)
            .cloned()
            .collect();
        (!groups.is_empty()).then(|| HfRatio {
            source: source.into(),
            groups,
            counts,
        })
    }

    /// The boards of the groups (only boards have counts), smallest first.
    fn boards(&self) -> Vec<Board> {
        let mut v: Vec<Board> = self.groups.iter().filter_map(|g| g.place.board()).collect();
        v.sort_by_key(|&b| board_key(b));
        v.dedup();
        v
    }

    fn row(&self, g: &Group) -> &CountRow {
        self.counts
            .of(g)
            .expect("HfRatio keeps only groups with a counts row")
    }

    /// Every preset: its name and (board, settled tour share, counts) points, in spec
    /// order.
    fn series(&self) -> Vec<(String, Vec<Point<'_>>)> {
        spec_order(&self.groups)
            .into_iter()
            .map(|id| {
                let mut pts: Vec<Point<'_>> = self
                    .groups
                    .iter()
                    .filter(|g| g.id == id)
                    .filter_map(|g| Some((g.place.board()?, settled_tour_share(g), self.row(g))))
                    .collect();
                pts.sort_by_key(|p| board_key(p.0));
                (id.display(), pts)
            })
            .collect()
    }

    /// The counts rows of the series on board `b`: one when they share a geometry.
    fn rows_on(&self, b: Board) -> Vec<&CountRow> {
        let mut rows: Vec<&CountRow> = Vec::new();
        for g in self.groups.iter().filter(|g| g.place.board() == Some(b)) {
            let row = self.row(g);
            if !rows.contains(&row) {
                rows.push(row);
            }
        }
        rows
    }

    /// Draw the figure to `path` (PNG, SVG or PDF by its extension) and its numbers to
    /// the CSV beside it.
    pub fn save(&self, path: &Path) -> Result<(), super::PlotError> {
        render(self, path, (1050, 640))?;
        self.table().write(&csv_path(path))
    }

    /// One row per preset and board, with that board's H, F and H/F.
    pub fn table(&self) -> Table {
        let mut t = Table::new(&[
            "series",
            "board",
            "trials",
            "settled",
            "tours",
            "settled_tour_share",
            "wilson_low",
            "wilson_high",
            "closed_tours",
            "two_factors",
            "h_over_f",
            "closed_tours_source",
        ]);
        for (name, pts) in self.series() {
            for (b, s, row) in pts {
                let trials = self
                    .groups
                    .iter()
                    .find(|g| g.place == Place::Board(b) && g.id.display() == name)
                    .map_or(0, |g| g.trials);
                t.push(vec![
                    name.clone(),
                    b.to_string(),
                    trials.to_string(),
                    s.n.to_string(),
                    s.k.to_string(),
                    num(Some(s.p)),
                    num(Some(s.low)),
                    num(Some(s.high)),
                    row.closed_tours.to_string(),
                    row.two_factors.to_string(),
                    num(Some(row.ratio())),
                    row.closed_tours_source.clone(),
                ]);
            }
        }
        t
    }
}

impl Figure for HfRatio {
    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> DrawResult {
        root.fill(&WHITE).map_err(de)?;
        let bs = self.boards();
        let series = self.series();
        let lo = series
            .iter()
            .flat_map(|(_, p)| p.iter())
            .flat_map(|(_, s, row)| [s.low, s.p, row.ratio()])
            .filter(|v| *v > 0.0)
            .fold(1.0f64, f64::min);
        let (lo, hi) = (lo / 2.0, 1.5);
        let per = trials_phrase(self.groups.iter().map(|g| g.trials), "preset and board");
        heading(
            root,
            "Tours among settled attempts against H/F (a uniformly random 2-factor)",
            format!(
                "{}: {per}; settled = tour or several cycles; log axis; bars: Wilson 95% intervals",
                self.source
            ),
        )?;
        let nb = bs.len();
        let body = root.margin(70, 50, 10, 20);
        let mut chart = cartesian(
            &body,
            10,
            90,
            axes::board_axis(&bs, body.dim_in_pixel().0.saturating_sub(120)),
            axes::ticked((lo..hi).log_scale(), axes::log_ticks(lo, 1.0)),
        )?;
        let fmt =
            |x: &f64| axes::category_index(*x, nb).map_or_else(String::new, |i| bs[i].to_string());
        mesh(
            &mut chart,
            "board, by number of squares",
            "tours / settled attempts, log scale",
        )
        .disable_x_mesh()
        .x_label_formatter(&fmt)
        .y_label_formatter(&|y| axes::percent(*y))
        .draw()
        .map_err(de)?;
        let at = |b: &Board| bs.iter().position(|x| x == b).unwrap_or(0) as f64;
        // H/F: a horizontal bar across each board's column, black when knightnet counted
        // H, grey when H is a published count; where the series on a board differ in
        // geometry, a short bar under each series' point instead.
        let k = series.len() as f64;
        let dodge = |i: usize| (i as f64 - (k - 1.0) / 2.0) * (0.6 / k.max(1.0));
        let mut marks: Vec<(f64, f64, &CountRow)> = Vec::new();
        for b in &bs {
            if let [row] = self.rows_on(*b).as_slice() {
                marks.push((at(b), 0.42, row));
            }
        }
        for (i, (_, pts)) in series.iter().enumerate() {
            for (b, _, row) in pts {
                if self.rows_on(*b).len() > 1 {
                    marks.push((at(b) + dodge(i), 0.3 / k.max(1.0), row));
                }
            }
        }
        let mut cited = false;
        for (x, half, row) in marks {
            cited |= row.cited();
            let colour = if row.cited() { palette::GREY } else { INK };
            let y = row.ratio();
            chart
                .draw_series(std::iter::once(PathElement::new(
                    vec![(x - half, y), (x + half, y)],
                    colour.stroke_width(3),
                )))
                .map_err(de)?;
        }
        let mut legend = vec![(Mark::Line(INK), "H/F".to_string())];
        if cited {
            legend.push((
                Mark::Line(palette::GREY),
                "H/F, H from the literature".to_string(),
            ));
        }
        for (i, (name, pts)) in series.iter().enumerate() {
            let colour = palette::series(i);
            for (b, s, _) in pts {
                let x = at(b) + dodge(i);
                interval_bar(&mut chart, x, s, lo, 0.03, colour)?;
                if s.k > 0 {
                    chart
                        .draw_series(std::iter::once(Circle::new((x, s.p), 5, colour.filled())))
                        .map_err(de)?;
                }
            }
            legend.push((Mark::Dot(colour), name.clone()));
        }
        if series
            .iter()
            .any(|(_, pts)| pts.iter().any(|(_, s, _)| s.k == 0))
        {
            legend.push((Mark::Down(INK), "no tour: upper end".to_string()));
        }
        legend_below(root, &legend, 18)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solvers::SolverFamily;
    use std::collections::BTreeMap;

    fn write(text: &str) -> (tempfile::TempDir, std::path::PathBuf) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("counts.csv");
        std::fs::write(&path, text).unwrap();
        (dir, path)
    }

    const HEADER: &str = "board,closed_tours,two_factors,closed_tours_source,command\n";

    #[test]
    fn loads_rows_and_finds_a_board_or_its_transpose() {
        let (_d, path) = write(&format!(
            "# comment\n{HEADER}6x6,9862,36236,knightnet,knightnet count --board 6x6 --two-factors\n\
             8x8,13267364410532,56691832946529,\"literature: McKay 1997, OEIS A001230\",x\n"
        ));
        let c = load(&path).unwrap();
        assert_eq!(c.rows.len(), 2);
        let six = c.get("6x6".parse().unwrap(), None).unwrap();
        assert!(!six.cited());
        assert!((six.ratio() - 9862.0 / 36236.0).abs() < 1e-15);
        assert!(c.get("8x8".parse().unwrap(), None).unwrap().cited());
        let (_d, path) = write(&format!("{HEADER}5x6,8,325,knightnet,c\n"));
        let c = load(&path).unwrap();
        assert_eq!(c.get("6x5".parse().unwrap(), None).unwrap().closed_tours, 8);
        assert!(c.get("6x6".parse().unwrap(), None).is_none());
    }

    #[test]
    fn a_geometry_row_serves_its_own_geometry_and_board_only() {
        let (_d, path) = write(
            "board,closed_tours,two_factors,closed_tours_source,command,surface,leaper\n\
             6x6,9862,36236,knightnet,a,,\n4x6,3,10,knightnet,b,cylinder,\"1,2\"\n6x6,5,20,knightnet,c,cylinder,\n\
             8x8,7,9,knightnet,d,plane,\"2,3\"\n",
        );
        let c = load(&path).unwrap();
        let b = |s: &str| s.parse::<Board>().unwrap();
        assert_eq!(c.get(b("6x6"), None).unwrap().closed_tours, 9862);
        assert_eq!(c.get(b("6x6"), Some("cylinder")).unwrap().closed_tours, 5);
        assert_eq!(c.get(b("4x6"), Some("cylinder")).unwrap().closed_tours, 3);
        // A cylinder's transpose wraps the other way: not the same counts.
        assert!(c.get(b("6x4"), Some("cylinder")).is_none());
        assert!(c.get(b("4x6"), None).is_none());
        assert!(c.get(b("6x6"), Some("torus")).is_none());
        assert_eq!(
            c.get(b("8x8"), Some("(2,3)-leaper")).unwrap().closed_tours,
            7
        );
    }

    #[test]
    fn bad_files_are_one_line_errors_naming_what_is_wrong() {
        for (body, needle) in [
            (
                "board,closed_tours\n6x6,1\n",
                "column 'two_factors' is missing",
            ),
            (
                &format!("{HEADER}6x6,many,36236,knightnet,c\n") as &str,
                "line 2: column 'closed_tours' has 'many'",
            ),
            (
                &format!("{HEADER}6x6,9,8,knightnet,c\n"),
                "exceeds two_factors",
            ),
            (
                &format!("{HEADER}5x6,8,325,knightnet,c\n6x5,8,325,knightnet,c\n"),
                "listed twice",
            ),
            (HEADER, "no rows"),
            (
                &format!("{HEADER}6by6,1,2,knightnet,c\n"),
                "line 2: column 'board'",
            ),
        ] {
            let (_d, path) = write(body);
            let e = load(&path).unwrap_err().to_string();
            assert!(e.contains(needle) && !e.contains('\n'), "{e}");
        }
    }

    fn group(preset: &str, board: &str, outcomes: &[(&str, u64)]) -> Group {
        Group {
            id: crate::plot::data::SolverId {
                solver: SolverFamily::Network,
                variant: Some(preset.into()),
                entry: None,
            },
            place: crate::plot::data::Place::Board(board.parse().unwrap()),
            geometry: None,
            trials: outcomes.iter().map(|o| o.1).sum(),
            outcomes: outcomes
                .iter()
                .map(|&(o, n)| (o.to_string(), n))
                .collect::<BTreeMap<_, _>>(),
            iterations: Vec::new(),
            total_time_ns: 0.0,
            timed_trials: 0,
            times: Vec::new(),
            first_row: 0,
        }
    }

    #[test]
    fn the_settled_share_leaves_out_the_cap_and_keeps_boards_with_counts() {
        let g = group(
            "parberry",
            "6x6",
            &[
                ("tour", 30),
                ("multiple-cycles", 70),
                ("iteration-cap", 900),
            ],
        );
        let s = settled_tour_share(&g);
        assert_eq!((s.k, s.n), (30, 100));
        let (_d, path) = write(&format!("{HEADER}6x6,9862,36236,knightnet,c\n"));
        let counts = load(&path).unwrap();
        let never = group("wikipedia", "6x6", &[("iteration-cap", 10)]);
        let other = group("parberry", "8x8", &[("tour", 1)]);
        let fig = HfRatio::new("t", &[g, never.clone(), other], counts.clone()).unwrap();
        assert_eq!(fig.groups.len(), 1);
        let t = fig.table();
        assert_eq!(t.rows.len(), 1);
        assert_eq!(t.rows[0][1], "6x6");
        assert_eq!(t.rows[0][3], "100");
        // 9862 / 36236 = 0.2721602826..., to the CSV's six significant digits.
        assert_eq!(t.rows[0][10], "0.27216");
        assert!(HfRatio::new("t", &[never], counts).is_none());
    }
}
