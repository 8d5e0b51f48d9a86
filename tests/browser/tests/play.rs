//! The Play view in headless Chromium: a 5x5 game played to a completed open tour by
//! clicking squares, with a hint and an undo on the way, each checked against the
//! library.

use knightnet::board::Board;
use knightnet::puzzle::complete::{self, Completion, Hint, SEARCH_BUDGET};
use knightnet::solvers::search::{Config, Order, Search, Step};
use knightnet_browser::{Browser, Server};

/// Warnsdorff's choice from `path`: the first square the library's search places when
/// it tries moves in Warnsdorff's order (fewest onward moves first, its tie-break after).
fn warnsdorff_choice(board: Board, path: &[u32]) -> u32 {
    let cfg = Config {
        order: Order::Warnsdorff,
        ties_only: false,
        forward_check: false,
        connectivity: false,
        closed: false,
        max_steps: 1,
    };
    match Search::owned(board, path, cfg).step() {
        Step::Placed(s) | Step::Tour(s) => s,
        other => panic!("the search placed nothing from {path:?}: {other:?}"),
    }
}

/// Replace the text of the input `id` with `value`.
async fn fill(b: &Browser, id: &str, value: &str) {
    let input = b.find(&format!("#{id}")).await;
    input.clear().await.expect("clear");
    input.send_keys(value).await.expect("type");
}

#[tokio::test(flavor = "current_thread")]
async fn play_a_5x5_open_tour_by_clicking_with_a_hint_and_an_undo() {
    let server = Server::start(&[]);
    let b = Browser::start().await;
    b.client
        .goto(&format!("{}play", server.url))
        .await
        .expect("the page loads");
    b.body_data("path", |p| !p.is_empty()).await;
    let board = Board::new(5, 5).unwrap();
    fill(&b, "rows", "5").await;
    fill(&b, "cols", "5").await;
    // The start is drawn from the seed; a 5x5 tour starts only on the 13 squares of the
    // corners' colour, so new games are asked for until the library finds a tour from
    // the start the page shows.
    let mut found = None;
    for seed in 1..=40u64 {
        fill(&b, "seed", &seed.to_string()).await;
        b.client
            .execute("document.body.dataset.path = '';", vec![])
            .await
            .unwrap();
        b.find("#new").await.click().await.expect("click New game");
        let path = b.body_data("path", |p| !p.is_empty()).await;
        let start: u32 = path.parse().expect("one square after a new game");
        if let Completion::Found(rest) =
            complete::complete(board, &[start], SEARCH_BUDGET).completion
        {
            found = Some((start, rest));
            break;
        }
    }
    let (start, rest) = found.expect("a seed in 1..=40 whose start has a tour");
    assert_eq!(b.body_data("moves", |_| true).await, "1");

    // The hint: the library's, and Warnsdorff's choice.
    b.find("#hint").await.click().await.expect("click Hint");
    let hinted: u32 = b
        .body_data("hint", |h| !h.is_empty())
        .await
        .parse()
        .unwrap();
    let library = match complete::hint(board, &[start], SEARCH_BUDGET) {
        Hint::Completes(s) | Hint::Warnsdorff(s) => s,
        Hint::None => panic!("the library has no hint from {start}"),
    };
    assert_eq!(hinted, library, "the page's hint is the library's");
    assert_eq!(
        hinted,
        warnsdorff_choice(board, &[start]),
        "the hint is Warnsdorff's choice"
    );
    let class = b
        .find(&format!("#sq-{}", board.square_name(hinted)))
        .await
        .attr("class")
        .await
        .unwrap()
        .unwrap_or_default();
    assert!(class.split(' ').any(|c| c == "hint"), "{class}");

    // The tour, square by square, with one undo half-way.
    let mut played = vec![start];
    for (i, &s) in rest.iter().enumerate() {
        let square = format!("#sq-{}", board.square_name(s));
        b.find(&square).await.click().await.expect("click a square");
        played.push(s);
        let want = played.len().to_string();
        b.body_data("moves", |m| m == want).await;
        if i == rest.len() / 2 {
            b.find("#undo").await.click().await.expect("click Undo");
            let back = (played.len() - 1).to_string();
            b.body_data("moves", |m| m == back).await;
            let path = b.body_data("path", |_| true).await;
            let expect: Vec<String> = played[..played.len() - 1]
                .iter()
                .map(u32::to_string)
                .collect();
            assert_eq!(path, expect.join(","), "undo took back the last move");
            b.find(&square).await.click().await.expect("click it again");
            b.body_data("moves", |m| m == want).await;
        }
    }
    assert_eq!(b.body_data("moves", |_| true).await, "25");
    assert_eq!(b.body_data("ending", |e| !e.is_empty()).await, "open");
    let message = b.find("#message").await.text().await.unwrap();
    assert!(message.contains("open tour"), "{message}");
    b.screenshot("docs/screenshots/serve-play.png").await;
    b.client.close().await.expect("the session ends");
}

/// A torus with a hole, in the Play view: a wrapped move (no knight move on the plane)
/// is highlighted and played by a click; the hole, a torus move from the start on the
/// whole board, is drawn as a hole, never highlighted, and a click on it does nothing.
#[tokio::test(flavor = "current_thread")]
async fn play_a_wrapped_move_on_a_torus_and_a_hole_is_not_clickable() {
    use knightnet::geometry::{Geometry, Leaper, Shape, Surface};
    use knightnet::puzzle::Field;
    let server = Server::start(&[]);
    let b = Browser::start().await;
    b.client
        .goto(&format!("{}play", server.url))
        .await
        .expect("the page loads");
    b.body_data("path", |p| !p.is_empty()).await;
    let board = Board::new(6, 6).unwrap();
    let torus = |holes: &[u32]| {
        let shape = Shape::new(board, holes.iter().copied()).unwrap();
        Field::new(Geometry::new(shape, Leaper::KNIGHT, Surface::Torus)).unwrap()
    };
    fill(&b, "rows", "6").await;
    fill(&b, "cols", "6").await;
    b.find("#surface")
        .await
        .select_by_value("torus")
        .await
        .expect("choose the torus");
    let new_game = async |seed: u64| -> u32 {
        fill(&b, "seed", &seed.to_string()).await;
        b.client
            .execute("document.body.dataset.path = '';", vec![])
            .await
            .unwrap();
        b.find("#new").await.click().await.expect("click New game");
        let path = b.body_data("path", |p| !p.is_empty()).await;
        path.parse().expect("one square after a new game")
    };
    // The start drawn from the seed is the k-th square that is not a hole, so a hole
    // numbered after it leaves the start where it was.
    let (seed, start, hole) = {
        let mut pick = None;
        for seed in 1..=20u64 {
            let start = new_game(seed).await;
            let moves = torus(&[]).moves_from(start);
            let wraps = |&&s: &&u32| !board.is_knight_move(start, s);
            // A later square for the hole, and a wrapped move left to play.
            if let Some(&h) = moves.iter().find(|&&h| h > start)
                && moves.iter().filter(wraps).any(|&s| s != h)
            {
                pick = Some((seed, start, h));
                break;
            }
        }
        pick.expect("a start with a torus move to a later square and a wrapped move")
    };
    let field = torus(&[hole]);
    let mut picture = field.geometry().shape().to_string();
    picture.truncate(picture.trim_end().len());
    fill(&b, "shape", &picture).await;
    assert_eq!(new_game(seed).await, start, "the hole is after the start");
    let legal = b.body_data("legal", |l| !l.is_empty()).await;
    let legal: Vec<u32> = legal.split(',').map(|s| s.parse().unwrap()).collect();
    let mut expect = field.moves_from(start);
    expect.sort_unstable();
    let mut shown = legal.clone();
    shown.sort_unstable();
    assert_eq!(shown, expect, "the page highlights the library's moves");
    assert!(!legal.contains(&hole));
    let hole_id = format!("#sq-{}", board.square_name(hole));
    let class = b
        .find(&hole_id)
        .await
        .attr("class")
        .await
        .unwrap()
        .unwrap_or_default();
    assert!(class.split(' ').any(|c| c == "hole"), "{class}");
    assert!(!class.split(' ').any(|c| c == "legal"), "{class}");
    b.find(&hole_id)
        .await
        .click()
        .await
        .expect("click the hole");
    let wrapped = *legal
        .iter()
        .find(|&&s| !board.is_knight_move(start, s))
        .expect("a wrapped move from the start");
    b.find(&format!("#sq-{}", board.square_name(wrapped)))
        .await
        .click()
        .await
        .expect("click the wrapped move");
    b.body_data("moves", |m| m == "2").await;
    assert_eq!(
        b.body_data("path", |_| true).await,
        format!("{start},{wrapped}"),
        "the hole's click played nothing; the wrapped move was played"
    );
    b.client.close().await.expect("the session ends");
}
