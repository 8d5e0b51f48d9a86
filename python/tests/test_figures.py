"""Figures through the library's plot module: a solution's figure is the one
`knightnet solve --svg/--png` draws; tours, networks and runs draw too."""

import pytest

import knightnet as kn


@pytest.mark.parametrize("ext", ["svg", "png"])
def test_solution_figure_is_the_command_lines(cli, tmp_path, ext):
    ours = tmp_path / f"ours.{ext}"
    theirs = tmp_path / f"theirs.{ext}"
    kn.solve("8x8", seed=1).save_figure(ours)
    cli("solve", "--board", "8x8", "--seed", "1", f"--{ext}", theirs)
    assert ours.read_bytes() == theirs.read_bytes()
    assert ours.with_suffix(".csv").read_text() == theirs.with_suffix(".csv").read_text()


def test_tour_network_and_run_figures(tmp_path):
    tour = kn.solve("6x6", "warnsdorff", seed=2).to_tour()
    tour.save_figure(tmp_path / "tour.svg", title="A tour")
    svg = (tmp_path / "tour.svg").read_text()
    assert svg.lstrip().startswith("<svg") and "A tour" in svg
    # The CSV beside the figure lists the path's squares in order.
    rows = (tmp_path / "tour.csv").read_text().splitlines()
    assert len([r for r in rows if r.startswith("path,")]) == 36

    net = kn.Network("8x8", seed=3)
    net.save_figure(tmp_path / "start.png")
    assert (tmp_path / "start.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    flagged = [r for r in (tmp_path / "start.csv").read_text().splitlines() if r.startswith("flagged,")]
    assert len(flagged) == net.off_two

    run = kn.Network("8x8", preset="wikipedia", seed=1, max_attempts=1).run()
    run.save_figure(tmp_path / "run.svg")
    assert (tmp_path / "run.svg").stat().st_size > 0


def test_figure_paths_are_checked(tmp_path):
    sol = kn.solve("8x8", seed=1)
    with pytest.raises(ValueError, match="accepted: .png, .svg, .pdf"):
        sol.save_figure(tmp_path / "tour.jpg")
    (tmp_path / "dir.png").mkdir()
    with pytest.raises(ValueError, match="is a folder"):
        sol.save_figure(tmp_path / "dir.png")
    failed = kn.solve("8x8", preset="takefuji-lee", seed=1, max_attempts=1)
    assert failed.tour is None
    with pytest.raises(ValueError, match="no tour to draw"):
        failed.save_figure(tmp_path / "none.png")
