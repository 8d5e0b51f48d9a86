//! The Results view in headless Chromium on experiments/results/quickstart: the page
//! shows the rate of parberry on 8x8 as summary.json has it, draws the tour-rate and
//! run-length figures, and a record's replay link opens the Watch view on that record's
//! solver, board and seed.

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
    b.client.close().await.expect("the session ends");
}
