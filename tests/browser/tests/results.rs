//! The Results view in headless Chromium on experiments/results/quickstart: the page
//! shows the rate of parberry on 8x8 as summary.json has it, draws the tour-rate and
//! run-length figures, and a record's replay link (or any trial's number) opens the
//! Watch view on that record's solver, board and seed.

use fantoccini::actions::{InputSource, MOUSE_BUTTON_LEFT, MouseActions, PointerAction};
use knightnet_browser::{Browser, Server, root};

/// The share of tours of the cell `label` on `board` in the quickstart's summary.json,
/// with its interval, as the page writes them (four decimals).
fn summary_rate(label: &str, board: &str) -> (String, String) {
    let path = root().join("experiments/results/quickstart/summary.json");
    let summary: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let cell = summary["cells"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["label"] == label && c["board"] == board)
        .unwrap_or_else(|| panic!("no cell {label}/{board}"));
    let tour = cell["outcomes"]
        .as_array()
        .unwrap()
        .iter()
        .find(|o| o["outcome"] == "tour")
        .unwrap();
    let f = |k: &str| format!("{:.4}", tour[k].as_f64().unwrap());
    (f("share"), format!("[{}, {}]", f("ci_low"), f("ci_high")))
}

#[tokio::test(flavor = "current_thread")]
async fn the_quickstart_s_rates_figures_and_replays_are_on_the_page() {
    let server = Server::start(&[&root().join("experiments/results/quickstart")]);
    let b = Browser::start().await;
    b.client
        .goto(&format!("{}play", server.url))
        .await
        .expect("the page loads");
    b.find("#nav-results").await.click().await.unwrap();
    b.body_data("loaded", |s| s == "quickstart").await;

    let row = "#cells tr[data-key=\"parberry/8x8\"]";
    let rate = b
        .find(&format!("{row} .p-tour"))
        .await
        .text()
        .await
        .unwrap();
    let interval = b
        .find(&format!("{row} .interval"))
        .await
        .text()
        .await
        .unwrap();
    let (want_rate, want_interval) = summary_rate("parberry", "8x8");
    assert_eq!(rate, want_rate, "parberry on 8x8");
    assert_eq!(interval, want_interval, "parberry on 8x8");

    let drawn = b.body_data("figures", |s| !s.is_empty()).await;
    for stem in ["tour-rate", "run-length"] {
        assert!(
            drawn.split(' ').any(|s| s == stem),
            "{stem} not drawn: {drawn}"
        );
        b.find(&format!("#figure-{stem} .uplot canvas")).await;
        let csv = b
            .find(&format!("#figure-{stem} a.csv"))
            .await
            .attr("href")
            .await
            .unwrap()
            .expect("a CSV link");
        assert!(csv.contains(&format!("/csv/{stem}")), "{csv}");
    }
    // The legend shows the series of the tour-rate figure, one per network preset.
    let legend = b
        .find("#figure-tour-rate .u-legend")
        .await
        .text()
        .await
        .unwrap();
    for preset in ["parberry", "brant", "takefuji-lee"] {
        assert!(
            legend.contains(preset),
            "{preset} not in the legend: {legend}"
        );
    }
    // Hovering over 8x8 (the second of two boards: three quarters across) shows
    // parberry's p(tour) there with its interval in the legend.
    let shown = b
        .client
        .execute(
            "const over = document.querySelector('#figure-tour-rate .u-over');
             const r = over.getBoundingClientRect();
             over.dispatchEvent(new MouseEvent('mouseenter', { clientX: r.left + 0.75 * r.width, clientY: r.top + r.height / 2, bubbles: true }));
             over.dispatchEvent(new MouseEvent('mousemove', { clientX: r.left + 0.75 * r.width, clientY: r.top + r.height / 2, bubbles: true }));
             const rows = [...document.querySelectorAll('#figure-tour-rate .u-legend .u-series')];
             const row = rows.find((tr) => tr.querySelector('.u-label').textContent === 'parberry');
             return row.querySelector('.u-value').textContent;",
            vec![],
        )
        .await
        .expect("the script runs");
    let shown = shown.as_str().expect("a value").to_string();
    let numbers: Vec<f64> = shown
        .split(|c: char| !(c.is_ascii_digit() || c == '.'))
        .filter(|w| !w.is_empty())
        .map(|w| w.parse().unwrap())
        .collect();
    let want: Vec<f64> = [&want_rate, &want_interval]
        .iter()
        .flat_map(|t| t.split(|c: char| !(c.is_ascii_digit() || c == '.')))
        .filter(|w| !w.is_empty())
        .map(|w| w.parse().unwrap())
        .collect();
    assert_eq!(numbers.len(), 3, "{shown}");
    for (got, want) in numbers.iter().zip(&want) {
        assert!(
            (got - want).abs() < 1e-3,
            "hover shows {shown}, summary.json {want_rate} {want_interval}"
        );
    }
    // A click on the legend entry hides the series.
    b.find("#figure-tour-rate .u-legend .u-series:nth-child(2) th")
        .await
        .click()
        .await
        .unwrap();
    let class = b
        .find("#figure-tour-rate .u-legend .u-series:nth-child(2)")
        .await
        .attr("class")
        .await
        .unwrap()
        .unwrap_or_default();
    assert!(class.contains("u-off"), "the series is not hidden: {class}");

    // Dragging across the right half of the chart zooms in on 8x8 alone (category 1 of
    // 0 and 1); a double click zooms back out to both boards.
    let x_range = |script: &'static str| {
        let client = b.client.clone();
        async move {
            let v = client
                .execute(script, vec![])
                .await
                .expect("the script runs");
            let pair = v.as_array().expect("the x scale's ends").clone();
            (pair[0].as_f64().unwrap(), pair[1].as_f64().unwrap())
        }
    };
    const SCALE: &str = "const u = document.querySelector('#figure-tour-rate .chart').uplot;
         return [u.scales.x.min, u.scales.x.max];";
    let (lo, hi) = x_range(SCALE).await;
    assert!(lo < 0.0 && hi > 1.0, "before zooming: x from {lo} to {hi}");
    // A real drag, by WebDriver's pointer actions: from 55% to 97% of the plot's width
    // (offsets from its centre).
    let over = b.find("#figure-tour-rate .u-over").await;
    let (_, _, width, _) = over.rectangle().await.expect("the plot's size");
    let at = |share: f64, duration: Option<std::time::Duration>| PointerAction::MoveToElement {
        element: over.clone(),
        duration,
        x: (share - 0.5) * width,
        y: 0.0,
    };
    let drag = MouseActions::new("mouse".into())
        .then(at(0.55, None))
        .then(PointerAction::Down {
            button: MOUSE_BUTTON_LEFT,
        })
        .then(at(0.97, Some(std::time::Duration::from_millis(300))))
        .then(PointerAction::Up {
            button: MOUSE_BUTTON_LEFT,
        });
    b.client.perform_actions(drag).await.expect("the drag");
    let (lo, hi) = x_range(SCALE).await;
    assert!(
        lo > 0.0 && lo < 1.0 && hi > 1.0 && hi <= 1.5,
        "after dragging over 8x8: x from {lo} to {hi}"
    );
    // A real double click on the plot.
    let press = || PointerAction::Down {
        button: MOUSE_BUTTON_LEFT,
    };
    let release = || PointerAction::Up {
        button: MOUSE_BUTTON_LEFT,
    };
    let double = MouseActions::new("mouse".into())
        .then(at(0.5, None))
        .then(press())
        .then(release())
        .then(press())
        .then(release());
    b.client
        .perform_actions(double)
        .await
        .expect("the double click");
    let (lo, hi) = x_range(SCALE).await;
    assert!(
        lo < 0.0 && hi > 1.0,
        "after a double click: x from {lo} to {hi}"
    );

    b.client
        .execute("document.getElementById('cells').scrollIntoView();", vec![])
        .await
        .expect("the script runs");
    b.screenshot("docs/screenshots/serve-results.png").await;

    // A record's replay opens the Watch view on its solver, board and seed.
    let link = b.find(&format!("{row} a.replay")).await;
    let href = link.attr("href").await.unwrap().expect("a link");
    link.click().await.unwrap();
    b.body_data("step", |s| s == "0").await;
    let query: Vec<(String, String)> = href
        .split_once('?')
        .expect("a query")
        .1
        .split('&')
        .map(|kv| {
            let (k, v) = kv.split_once('=').unwrap();
            (k.to_string(), v.replace("%3A", ":"))
        })
        .collect();
    for (k, v) in &query {
        let shown = b.find(&format!("#{k}")).await.prop("value").await.unwrap();
        assert_eq!(shown.as_deref(), Some(v.as_str()), "{k}");
    }
    assert!(query.iter().any(|(k, v)| k == "seed" && v.len() > 15));

    // Any other trial by its number: the last one of the same cell opens the Watch view
    // with the seed records.csv holds for it.
    b.client.back().await.expect("back to the Results view");
    b.body_data("loaded", |s| s == "quickstart").await;
    b.find(&format!("{row} input.trial-number"))
        .await
        .send_keys("1999")
        .await
        .unwrap();
    b.find(&format!("{row} button.replay-trial"))
        .await
        .click()
        .await
        .unwrap();
    b.body_data("step", |s| s == "0").await;
    let records = knightnet::experiment::records::read(
        &root().join("experiments/results/quickstart/records.csv"),
    )
    .unwrap()
    .records;
    let want = records
        .iter()
        .find(|r| r.label == "parberry" && r.board.to_string() == "8x8" && r.trial == 1999)
        .expect("trial 1999 of parberry on 8x8")
        .seed;
    let seed = b.find("#seed").await.prop("value").await.unwrap();
    assert_eq!(seed, Some(want.to_string()));
    b.client.close().await.expect("the session ends");
}
