import re

from ratings.charts import MAX_DOTS, rating_history_svg


def polyline_points(svg: str) -> list[tuple[float, float]]:
    match = re.search(r'<polyline class="line" points="([^"]*)"', svg)
    if not match:
        return []
    return [tuple(map(float, pair.split(","))) for pair in match.group(1).split()]


def test_no_games_shows_a_message():
    svg = rating_history_svg([])
    assert svg.startswith("<svg") and svg.endswith("</svg>")
    assert "No rated games yet" in svg and "<polyline" not in svg and "<circle" not in svg


def test_one_game_is_one_dot():
    svg = rating_history_svg([1234])
    assert "<polyline" not in svg
    assert svg.count("<circle") == 1 and "Game 1: 1234" in svg


def test_many_games_are_one_polyline_point_each_with_axes_and_labels():
    values = [1200, 1215, 1190, 1260, 1302, 1288, 1350, 1330, 1401, 1420, 1415, 1460]
    svg = rating_history_svg(values, provisional_games=10, label="Ann's <rating>")
    points = polyline_points(svg)
    assert len(points) == len(values) and svg.count("<circle") == len(values)
    xs = [x for x, _ in points]
    assert xs == sorted(xs)  # left to right in game order
    highest = values.index(max(values))
    assert min(points, key=lambda p: p[1]) == points[highest]  # the top of the chart is the best rating
    assert svg.count('class="axis"') == 2 and "Rated games" in svg and ">Rating<" in svg
    assert ">1200<" in svg and ">1500<" in svg  # round tick labels around the values
    assert 'class="provisional"' in svg
    assert "Ann&#x27;s &lt;rating&gt;" in svg  # labels are escaped


def test_a_long_history_keeps_every_point_but_drops_the_dots():
    values = [1200 + (i * 37) % 300 for i in range(500)]
    svg = rating_history_svg(values)
    assert len(polyline_points(svg)) == 500 and "<circle" not in svg and MAX_DOTS < 500
    assert len(re.findall(r'<text class="tick"[^>]*text-anchor="middle">\d+</text>', svg)) <= 12


def test_a_flat_history_still_has_a_y_range():
    svg = rating_history_svg([1300, 1300, 1300])
    points = polyline_points(svg)
    assert len(points) == 3 and len({y for _, y in points}) == 1
    assert not re.search(r"[\"\s,(](-?nan|-?inf)\b", svg)
