//! The Watch view in headless Chromium: 20 network steps on 8x8 with a seed, clicked one
//! at a time, and then played on and paused; the drawn state (the active moves, exposed
//! as `data-active` on the page's body) is the library's after the same steps; and a few
//! network steps on a 6x6 torus with two holes, given as Play's inputs, against the
//! library's on that geometry.

use knightnet::board::Board;
use knightnet::geometry::{Geometry, Leaper, Shape, Surface};
use knightnet::puzzle::Field;
use knightnet::puzzle::watch::{View, WatchKind};
use knightnet_browser::{Browser, Server};

/// The active moves after `steps` steps of `solver` on 8x8 from `seed`, as the page
/// writes them: `a-b` with a < b, sorted, space-separated.
fn library_active(solver: &str, seed: u64, steps: u64) -> String {
    active_on(
        Field::knight(Board::new(8, 8).unwrap()),
        solver,
        seed,
        steps,
    )
}

/// [`library_active`] on `field`.
fn active_on(field: Field, solver: &str, seed: u64, steps: u64) -> String {
    let kind: WatchKind = solver.parse().unwrap();
    let mut s = kind.build(field, &[], 0, seed).unwrap();
    while s.steps() < steps {
        assert!(
            s.step().is_running() || s.steps() == steps,
            "the run ended early"
        );
    }
    let View::Edges { edges, .. } = s.view() else {
        panic!("the network's view has moves")
    };
    let mut keys: Vec<String> = edges
        .iter()
        .map(|&(a, b)| format!("{}-{}", a.min(b), a.max(b)))
        .collect();
    keys.sort();
    keys.join(" ")
}

#[tokio::test(flavor = "current_thread")]
async fn twenty_network_steps_on_8x8_are_the_library_s() {
    let (solver, seed) = ("network:parberry", 7);
    let server = Server::start(&[]);
    let b = Browser::start().await;
    b.client
        .goto(&format!("{}watch", server.url))
        .await
        .expect("the page loads");
    b.body_data("step", |s| s == "0").await;
    let select = b.find("#solver").await;
    select
        .select_by_value(solver)
        .await
        .expect("the solver is offered");
    for (id, v) in [("rows", "8"), ("cols", "8"), ("seed", &seed.to_string())] {
        let input = b.find(&format!("#{id}")).await;
        input.clear().await.unwrap();
        input.send_keys(v).await.unwrap();
    }
    b.find("#reset").await.click().await.unwrap();
    // The reset's stream has sent its one frame (a Step clicked before it arrives is
    // ignored: the page has no state to step from).
    b.body_data("playing", |p| p == "false").await;
    b.body_data("step", |s| s == "0").await;
    for k in 1..=20u64 {
        b.find("#step").await.click().await.unwrap();
        let want = k.to_string();
        b.body_data("step", |s| s == want).await;
        b.body_data("playing", |p| p == "false").await;
    }
    let drawn = b.body_data("active", |_| true).await;
    assert!(!drawn.is_empty(), "some moves are active after 20 steps");
    assert_eq!(drawn, library_active(solver, seed, 20), "after 20 steps");
    b.screenshot("docs/screenshots/serve-watch.png").await;

    // Played on, then paused: the state drawn is still the library's at its step.
    b.find("#play").await.click().await.unwrap();
    b.body_data("step", |s| s.parse::<u64>().unwrap() >= 25)
        .await;
    b.find("#pause").await.click().await.unwrap();
    b.body_data("playing", |p| p == "false").await;
    let step: u64 = b.body_data("step", |_| true).await.parse().unwrap();
    let drawn = b.body_data("active", |_| true).await;
    assert_eq!(
        drawn,
        library_active(solver, seed, step),
        "after {step} steps"
    );
    b.client.close().await.expect("the session ends");
}

/// The torus with holes from the page's own inputs (the surface chosen, the shape typed
/// as a picture, which sets the board's size): after each of 8 steps the drawn active
/// moves are the library's on that geometry, and the page names the holes it drew.
#[tokio::test(flavor = "current_thread")]
async fn network_steps_on_a_torus_with_holes_are_the_library_s() {
    let (solver, seed) = ("network:parberry", 3);
    let picture = "#.....\n......\n......\n......\n......\n....#.";
    let shape: Shape = picture.parse().unwrap();
    let field = Field::new(Geometry::new(shape, Leaper::KNIGHT, Surface::Torus)).unwrap();
    let server = Server::start(&[]);
    let b = Browser::start().await;
    b.client
        .goto(&format!("{}watch", server.url))
        .await
        .expect("the page loads");
    b.body_data("step", |s| s == "0").await;
    b.find("#solver")
        .await
        .select_by_value(solver)
        .await
        .expect("the solver is offered");
    b.find("#surface")
        .await
        .select_by_value("torus")
        .await
        .expect("the torus is offered");
    let input = b.find("#seed").await;
    input.clear().await.unwrap();
    input.send_keys(&seed.to_string()).await.unwrap();
    b.find("#shape").await.send_keys(picture).await.unwrap();
    b.find("#reset").await.click().await.unwrap();
    b.body_data("holes", |h| h == "0,34").await;
    b.body_data("playing", |p| p == "false").await;
    b.body_data("step", |s| s == "0").await;
    for k in 1..=8u64 {
        b.find("#step").await.click().await.unwrap();
        let want = k.to_string();
        b.body_data("step", |s| s == want).await;
        b.body_data("playing", |p| p == "false").await;
        let drawn = b.body_data("active", |_| true).await;
        assert_eq!(
            drawn,
            active_on(field.clone(), solver, seed, k),
            "after {k} steps"
        );
    }
    b.client.close().await.expect("the session ends");
}
