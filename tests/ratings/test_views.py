import re

import pytest
from django.urls import reverse

from ratings.models import PROVISIONAL_GAMES


def polyline_count(html: str) -> int:
    match = re.search(r'<polyline class="line" points="([^"]*)"', html)
    return len(match.group(1).split()) if match else 0


def test_leaderboard_urls():
    assert reverse("ratings:leaderboard") == "/ratings/"
    assert reverse("ratings:player", args=["ann.b+c@x"]) == "/ratings/player/ann.b+c@x/"


def test_leaderboard_ranks_established_players_and_marks_provisional_ones(client, players, rate_game):
    a, b, c, d = players[:4]
    for _ in range(PROVISIONAL_GAMES):
        rate_game([(a, 30), (b, 100), (c, 60)])
    rate_game([(d, 10), (a, 100), (None, 50)])  # d: one game, provisional
    html = client.get("/ratings/?players=3").content.decode()
    board = html.split("<h2>Provisional</h2>")[0]
    assert board.index(">alice<") < board.index(">carol<") < board.index(">bob<")
    assert ">dave<" not in board
    provisional = html.split("<h2>Provisional</h2>")[1]
    assert ">dave<" in provisional and re.search(r"\d+\?</td>", provisional)
    assert 'class="active" aria-current="page">3 players' in html
    assert 'href="/ratings/player/alice/?players=3"' in html


@pytest.mark.parametrize("query", ["", "?players=7", "?players=four"])
def test_leaderboard_defaults_to_four_players(client, db, query):
    response = client.get("/ratings/" + query)
    assert response.status_code == 200
    assert 'aria-current="page">4 players' in response.content.decode()
    assert "Nobody is ranked at 4 players yet" in response.content.decode()


def test_leaderboard_shows_your_own_rating(client, players, rate_game):
    rate_game([(players[0], 10), (players[1], 100), (None, 50)])
    client.force_login(players[0])
    html = client.get("/ratings/?players=3").content.decode()
    assert "Your rating at 3 players" in html and "1 of 10 rated games" in html


def test_player_page_draws_one_point_per_rated_game(client, players, rate_game):
    a, b, c = players[:3]
    for i in range(12):
        rate_game([(a, 30 + i), (b, 100), (c, 60)], deals=10, moons={a.pk: 1} if i < 3 else None)
    rate_game([(a, 50), (b, 20), (c, 60), (None, 90)])  # one game at 4 players
    response = client.get("/ratings/player/alice/")
    html = response.content.decode()
    assert response.status_code == 200
    assert "Rating history · 3 players" in html  # the most played table size
    assert html.count("<svg") == 1 and polyline_count(html) == 12
    assert html.count('<circle class="dot"') == 12
    assert "#1" in html  # leaderboard place at 3 players
    one = client.get("/ratings/player/alice/?players=4").content.decode()
    assert polyline_count(one) == 0 and one.count('<circle class="dot"') == 1
    none = client.get("/ratings/player/alice/?players=6").content.decode()
    assert "No rated games yet" in none


def test_player_page_statistics(client, players, rate_game):
    a, b, c = players[:3]
    rate_game([(a, 40), (b, 101), (c, 62)], moons={a.pk: 2}, deals=8)
    rate_game([(a, 50), (b, 50), (c, 100)], deals=12)
    html = client.get("/ratings/player/alice/").content.decode()
    stats = html.split("<h2>Statistics</h2>")[1]
    row = re.search(r"<th scope=\"row\">Rated, 3 players</th>(.*?)</tr>", stats, re.S).group(1)
    cells = re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)
    assert [c.strip() for c in cells] == ["2", "2", "1", "100%", "4.50", "2", "0"]  # 90 points / 20 deals


def test_a_new_player_page(client, make_user):
    make_user("newbie", display_name="New Bie")
    html = client.get("/ratings/player/newbie/").content.decode()
    assert "New Bie" in html and "No rated games yet" in html and "No live games yet" in html


def test_unknown_player_is_404(client, db):
    assert client.get("/ratings/player/nobody/").status_code == 404


def test_player_page_marks_shared_places_and_games_left(client, players, rate_game):
    a, b, c = players[:3]
    rate_game([(a, 50), (b, 50), (c, 100)])
    rate_game([(a, 10), (b, 50), (c, 100)], dropped={a})
    html = client.get("/ratings/player/alice/?players=3").content.decode()
    recent = html.split('class="list recent"')[1]
    assert re.search(r'>3 <span class="tag"[^>]*>left</span>', recent)  # newest first: left early, rated last
    assert '1<abbr title="Shared place">=</abbr>' in recent
    assert recent.count('title="Shared place"') == 1
