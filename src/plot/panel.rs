//! The chart set-up the figures' panels share: margins and label areas around a
//! Cartesian panel over any pair of coordinates (board categories, linear or log
//! ranges), the mesh's fonts and grid colour, a series' line (colour and dash) and the
//! step line of a distribution function, and the interval bar of a share.

use plotters::chart::{ChartContext, MeshStyle};
use plotters::coord::Shift;
use plotters::coord::cartesian::Cartesian2d;
use plotters::coord::ranged1d::{AsRangedCoord, Ranged, ValueFormatter};
use plotters::prelude::*;

use super::data::Share;
use super::{DrawResult, FONT, de, palette};

/// Colour of the grid lines at the ticks.
pub(crate) const GRID: RGBColor = RGBColor(0xE4, 0xE4, 0xE4);

/// A Cartesian chart over the coordinates `X` and `Y` describe.
pub(crate) type Panel<'a, DB, X, Y> = ChartContext<
    'a,
    DB,
    Cartesian2d<<X as AsRangedCoord>::CoordDescType, <Y as AsRangedCoord>::CoordDescType>,
>;

/// A panel on `area` with the given outer margin and width of the y tick labels' area
/// (the x labels get 52 pixels), over the coordinates `x` and `y`.
pub(crate) fn cartesian<'a, DB, X, Y>(
    area: &'a DrawingArea<DB, Shift>,
    margin: u32,
    y_label_area: u32,
    x: X,
    y: Y,
) -> Result<Panel<'a, DB, X, Y>, super::PlotError>
where
    DB: DrawingBackend,
    X: AsRangedCoord,
    Y: AsRangedCoord,
{
    ChartBuilder::on(area)
        .margin(margin)
        .x_label_area_size(52)
        .y_label_area_size(y_label_area)
        .build_cartesian_2d(x, y)
        .map_err(de)
}

/// The mesh of `chart` with the axis descriptions, the figures' fonts (20 px axis
/// descriptions, 18 px tick labels) and grid colour; the caller adds its label
/// formatters and anything else, then draws it.
pub(crate) fn mesh<'a, 'b, DB, X, Y, XT, YT>(
    chart: &'b mut ChartContext<'a, DB, Cartesian2d<X, Y>>,
    x_desc: &str,
    y_desc: &str,
) -> MeshStyle<'a, 'b, X, Y, DB>
where
    DB: DrawingBackend,
    X: Ranged<ValueType = XT> + ValueFormatter<XT>,
    Y: Ranged<ValueType = YT> + ValueFormatter<YT>,
{
    let mut m = chart.configure_mesh();
    m.x_desc(x_desc)
        .y_desc(y_desc)
        .axis_desc_style((FONT, 20))
        .label_style((FONT, 18))
        .bold_line_style(GRID);
    m
}

/// The points of a distribution function's step line from `lo` to `hi`: `points` are,
/// in increasing x, each value and the function's value from it on (the function is 0
/// before the first).
pub(crate) fn step_points(
    points: impl IntoIterator<Item = (f64, f64)>,
    lo: f64,
    hi: f64,
) -> Vec<(f64, f64)> {
    let mut path = vec![(lo, 0.0)];
    let mut last = 0.0;
    for (x, y) in points {
        path.push((x, last));
        path.push((x, y));
        last = y;
    }
    path.push((hi, last));
    path
}

/// Draw the line through `points` as series `series` of the palette: its colour and its
/// dash ([`palette::dash`]), `width` pixels wide.
pub(crate) fn series_line<DB, CT>(
    chart: &mut ChartContext<'_, DB, CT>,
    points: Vec<(f64, f64)>,
    series: usize,
    width: u32,
) -> DrawResult
where
    DB: DrawingBackend,
    CT: CoordTranslate<From = (f64, f64)>,
{
    line(
        chart,
        points,
        palette::series(series),
        palette::dash(series),
        width,
    )
}

/// Draw the line through `points` in `colour` and `dash`, `width` pixels wide.
pub(crate) fn line<DB, CT>(
    chart: &mut ChartContext<'_, DB, CT>,
    points: Vec<(f64, f64)>,
    colour: RGBColor,
    dash: palette::Dash,
    width: u32,
) -> DrawResult
where
    DB: DrawingBackend,
    CT: CoordTranslate<From = (f64, f64)>,
{
    let style = colour.stroke_width(width);
    match dash_pixels(dash, width) {
        (0, _) => chart
            .draw_series(LineSeries::new(points, style))
            .map(|_| ()),
        (on, off) => chart
            .draw_series(DashedLineSeries::new(points, on, off, style))
            .map(|_| ()),
    }
    .map_err(de)
}

/// Dash and gap in pixels of a line `width` wide (0: solid).
pub(crate) fn dash_pixels(dash: palette::Dash, width: u32) -> (i32, i32) {
    let w = width.max(1) as i32;
    match dash {
        palette::Dash::Solid => (0, 0),
        palette::Dash::Dashed => (5 * w, 3 * w),
        palette::Dash::Dotted => (w, 2 * w + 1),
    }
}

/// A share's 95% interval as a vertical bar at `x` with caps `cap` wide, on a log y axis
/// whose bottom edge is `bottom`: a zero lower end has no place on it, so the bar then
/// runs to the bottom edge without a cap. A share with no success (`k = 0`) gets a
/// downward triangle at its upper end.
pub(crate) fn interval_bar<DB, CT>(
    chart: &mut ChartContext<'_, DB, CT>,
    x: f64,
    s: &Share,
    bottom: f64,
    cap: f64,
    colour: RGBColor,
) -> DrawResult
where
    DB: DrawingBackend,
    CT: CoordTranslate<From = (f64, f64)>,
{
    let low = if s.low > 0.0 { s.low } else { bottom };
    let mut bars = vec![
        PathElement::new(vec![(x, low), (x, s.high)], colour.stroke_width(2)),
        PathElement::new(
            vec![(x - cap, s.high), (x + cap, s.high)],
            colour.stroke_width(2),
        ),
    ];
    if s.low > 0.0 {
        bars.push(PathElement::new(
            vec![(x - cap, low), (x + cap, low)],
            colour.stroke_width(2),
        ));
    }
    chart.draw_series(bars).map_err(de)?;
    if s.k == 0 {
        chart
            .draw_series(std::iter::once(
                EmptyElement::at((x, s.high))
                    + Polygon::new(vec![(-7, -5), (7, -5), (0, 7)], colour.filled()),
            ))
            .map_err(de)?;
    }
    Ok(())
}
