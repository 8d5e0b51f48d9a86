//! Convergence data in the Results view, in headless Chromium: a folder holding what
//! `convergence --board 6x6 --runs 5` wrote is listed and opened; the chart of squares
//! off degree 2 holds the CSV's means, a click on a legend entry hides its series, a drag
//! zooms and a double click zooms out, and a run's replay link opens the Watch view on
//! that run's seed.

use fantoccini::actions::{InputSource, MOUSE_BUTTON_LEFT, MouseActions, PointerAction};
use knightnet_browser::{Browser, Server, binary};

/// The CSV at `path` as rows of fields, the header first.
fn csv_rows(path: &std::path::Path) -> Vec<Vec<String>> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(|l| l.split(',').map(String::from).collect())
        .collect()
}

#[tokio::test(flavor = "current_thread")]
async fn a_convergence_run_is_drawn_from_its_csv_and_replayed() {
    let tmp = tempfile_dir();
    let out = std::process::Command::new(binary())
        .args([
            "convergence",
            "--board",
            "6x6",
            "--runs",
            "5",
            "--overlay",
            "numpy",
        ])
        .arg("--out")
        .arg(tmp.join("conv.png"))
        .output()
        .expect("knightnet runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let server = Server::start(&[&tmp]);
    let b = Browser::start().await;
    b.client
        .goto(&format!("{}results", server.url))
        .await
        .expect("the page loads");
    // The one entry of the folder opens by itself.
    b.body_data("convergence", |s| s == "1").await;
    b.body_data("loaded", |s| s == "conv.convergence.json")
        .await;

    // The chart's data: x the steps, one series per configuration, each the CSV's mean.
    let rows = csv_rows(&tmp.join("conv.csv"));
    let col = |name: &str| rows[0].iter().position(|h| h == name).unwrap();
    let data = b
        .client
        .execute(
            "const u = document.querySelector('#conv-figure-off_two .chart').uplot;
             return { data: u.data, labels: u.series.map((s) => s.label) };",
            vec![],
        )
        .await
        .expect("the script runs");
    let labels: Vec<&str> = data["labels"]
        .as_array()
        .unwrap()
        .iter()
        .skip(1)
        .map(|l| l.as_str().unwrap())
        .collect();
    assert_eq!(labels, ["parberry", "numpy"]);
    let xs = data["data"][0].as_array().unwrap();
    let mut compared = 0;
    for r in &rows[1..] {
        let series = labels.iter().position(|l| *l == r[0]).unwrap() + 1;
        let step: f64 = r[col("step")].parse().unwrap();
        let i = xs
            .iter()
            .position(|x| x.as_f64() == Some(step))
            .unwrap_or_else(|| panic!("no step {step} on the chart"));
        let drawn = data["data"][series][i].as_f64().unwrap();
        let want: f64 = r[col("off_two_mean")].parse().unwrap();
        assert!(
            (drawn - want).abs() < 1e-9,
            "{} step {step}: drawn {drawn}, CSV {want}",
            r[0]
        );
        compared += 1;
    }
    assert!(compared > 10, "only {compared} rows");
    // The CSV link downloads the file convergence wrote.
    let href = b
        .find("#conv-csv")
        .await
        .attr("href")
        .await
        .unwrap()
        .expect("a link");
    assert!(href.contains("/csv/data"), "{href}");

    // A click on numpy's legend entry hides it.
    b.find("#conv-figure-off_two .u-legend .u-series:nth-child(3) th")
        .await
        .click()
        .await
        .unwrap();
    let shown = b
        .client
        .execute(
            "const u = document.querySelector('#conv-figure-off_two .chart').uplot;
             return u.series.map((s) => s.show);",
            vec![],
        )
        .await
        .expect("the script runs");
    assert_eq!(shown, serde_json::json!([true, true, false]));

    // A real drag from 30% to 70% of the plot's width narrows the x axis; a double
    // click restores it.
    let x_range = || {
        let client = b.client.clone();
        async move {
            let v = client
                .execute(
                    "const u = document.querySelector('#conv-figure-off_two .chart').uplot;
                     return [u.scales.x.min, u.scales.x.max];",
                    vec![],
                )
                .await
                .expect("the script runs");
            (v[0].as_f64().unwrap(), v[1].as_f64().unwrap())
        }
    };
    let (lo, hi) = x_range().await;
    let over = b.find("#conv-figure-off_two .u-over").await;
    let (_, _, width, _) = over.rectangle().await.expect("the plot's size");
    let at = |share: f64, duration: Option<std::time::Duration>| PointerAction::MoveToElement {
        element: over.clone(),
        duration,
        x: (share - 0.5) * width,
        y: 0.0,
    };
    let press = || PointerAction::Down {
        button: MOUSE_BUTTON_LEFT,
    };
    let release = || PointerAction::Up {
        button: MOUSE_BUTTON_LEFT,
    };
    let drag = MouseActions::new("mouse".into())
        .then(at(0.3, None))
        .then(press())
        .then(at(0.7, Some(std::time::Duration::from_millis(300))))
        .then(release());
    b.client.perform_actions(drag).await.expect("the drag");
    let (zlo, zhi) = x_range().await;
    assert!(
        zlo > lo && zhi < hi && zlo < zhi,
        "zoomed from {lo}..{hi} to {zlo}..{zhi}"
    );
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
    let (rlo, rhi) = x_range().await;
    assert!(
        (rlo - lo).abs() < 1e-9 && (rhi - hi).abs() < 1e-9,
        "after a double click: {rlo}..{rhi}, before zooming {lo}..{hi}"
    );
    b.screenshot("docs/screenshots/serve-convergence.png").await;

    // The runs table lists every run; run 2 of parberry opens the Watch view on its seed.
    let runs = csv_rows(&tmp.join("conv-runs.csv"));
    let listed = b
        .client
        .execute(
            "return document.querySelectorAll('#conv-runs tbody tr').length;",
            vec![],
        )
        .await
        .expect("the script runs");
    assert_eq!(listed.as_u64(), Some(runs.len() as u64 - 1));
    let seed = runs
        .iter()
        .find(|r| r[0] == "parberry" && r[1] == "2")
        .expect("run 2 of parberry")[2]
        .clone();
    b.find("#conv-runs tr[data-key=\"parberry/2\"] a.replay")
        .await
        .click()
        .await
        .unwrap();
    b.body_data("step", |s| s == "0").await;
    let shown = b.find("#seed").await.prop("value").await.unwrap();
    assert_eq!(shown, Some(seed));
    let attempts = b.find("#attempts").await.prop("value").await.unwrap();
    assert_eq!(attempts.as_deref(), Some("1"));
    b.client.close().await.expect("the session ends");
    std::fs::remove_dir_all(&tmp).ok();
}

/// A fresh folder under the system's temporary folder.
fn tempfile_dir() -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "knightnet-browser-convergence-{}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}
