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
