//! The move orderings and switch squares of Squirrel & Cull 1996 (the table as printed in
//! Ganzfried 2004, Table 1), for the `squirrel-cull` tie-break.

/// One Squirrel–Cull ordering: `rank[k]` is the position of move `k` (our index) in the
/// ordering; lower ranks win ties. `until` is the switch square `(row, col)`, 0-based.
#[derive(Debug, Clone, Copy)]
pub(super) struct Ordering {
    pub(super) rank: [u8; 8],
    pub(super) until: Option<(usize, usize)>,
}

fn ordering(digits: &str, until: Option<(i64, i64)>, m: usize) -> Ordering {
    let mut rank = [0u8; 8];
    for (pos, d) in digits.bytes().enumerate() {
        rank[(d - b'1') as usize] = pos as u8;
    }
    // The table gives 1-based (row, col); squares off an m x m board never trigger.
    let until = until.and_then(|(r, c)| {
        (r >= 1 && c >= 1 && r as usize <= m && c as usize <= m)
            .then(|| (r as usize - 1, c as usize - 1))
    });
    Ordering { rank, until }
}

/// The Squirrel & Cull 1996 switching table for an m x m board (Ganzfried 2004,
/// Table 1), keyed by m mod 8.
pub(super) fn squirrel_cull_table(m: usize) -> Vec<Ordering> {
    let i = m as i64;
    let rows: Vec<(&str, Option<(i64, i64)>)> = match m % 8 {
        0 => vec![
            ("34261578", Some((i - 1, i - 2))),
            ("87642135", Some((2, 2))),
            ("51867342", Some((i - 8, 1))),
            ("51342678", Some((7, i - 3))),
            ("21435678", None),
        ],
        1 => vec![
            ("34261578", Some((i - 1, i - 2))),
            ("87642135", Some((2, 2))),
            ("51324678", Some((i - 6, (i + 9) / 2))),
            ("32481765", None),
        ],
        2 => vec![
            ("34261578", Some((6, 1))),
            ("87642135", Some((3, 1))),
            ("54132678", Some((i - 15, 4))),
            ("52431678", Some((10, i - 2))),
            ("85647123", Some((5, (i - 6) / 2))),
            ("15746823", None),
        ],
        3 => vec![
            ("34625718", Some((i - 1, i - 2))),
            ("42681357", Some((i - 6, i))),
            ("86512347", Some((2, 5))),
            ("51867342", Some((i - 10, 3))),
            ("61825437", Some(((i + 1) / 2, i - 2))),
            ("71642538", None),
        ],
        4 => vec![
            ("34261578", Some((i - 1, i - 2))),
            ("87642135", Some((2, 2))),
            ("51867342", Some((i - 8, 1))),
            ("51342678", Some((10, i - 5))),
            ("86753421", Some((13, (i + 2) / 2))),
            ("78563421", None),
        ],
        5 => {
            let col = if m % 16 == 5 {
                (i - 5) / 2
            } else {
                (i - 13) / 2
            };
            vec![
                ("34261578", Some((i - 1, i - 2))),
                ("87642135", Some((2, 2))),
                ("51324678", Some((i - 2, col))),
                ("15234678", None),
            ]
        }
        6 => vec![
            ("34261578", Some((6, 1))),
            ("87642135", Some((3, 1))),
            ("54132678", Some((i - 10, 1))),
            ("52431678", Some((10, i - 2))),
            ("85647123", Some((3, (i + 8) / 2))),
            ("12453678", None),
        ],
        _ => vec![
            ("34625718", Some((i - 1, i - 2))),
            ("42681357", Some((i - 6, i))),
            ("86512347", Some((2, 5))),
            ("51867342", Some((i - 6, 3))),
            ("61825437", Some(((i + 1) / 2, i - 2))),
            ("61357284", None),
        ],
    };
    rows.into_iter().map(|(d, u)| ordering(d, u, m)).collect()
}
