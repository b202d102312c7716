import re

import pytest
from django.urls import reverse
from markupsafe import escape as html_escape

from games import presenters, services, storage
from games.table import protocol
from games.engine import Card, Game, Rules
from games.models import Action, Table
from tests.security.cards import final_trick_cards, split_deal_ended

from .conftest import make_table, seat_zero_takes_every_card

HTMX = {"HTTP_HX_REQUEST": "true"}


def url(name, table):
    return reverse(f"solo:{name}", args=[table.pk])


def game_of(table):
    table.refresh_from_db()
    return storage.game_of(table)


def post_act(client, table, **fields):
    return client.post(url("act", table), fields, **HTMX)


def my_move(game, seat=0):
    """A legal move for the person (the first legal cards)."""
    if game.phase == "pass":
        return {"action": "pass", "cards": [str(c) for c in game.legal(seat)[:3]]}
    if game.phase == "moon_choice":
        return {"action": "moon", "choice": "add"}
    return {"action": "play", "card": str(game.legal(seat)[0])}


# --------------------------------------------------------------------------- access


@pytest.mark.django_db
def test_my_games_needs_a_player(client):
    response = client.get(reverse("solo:my_games"))
    assert response.status_code == 302
    assert reverse("accounts:login") in response["Location"]


@pytest.mark.django_db
@pytest.mark.parametrize("name", ["new", "learn"])
def test_new_game_and_learn_are_open_to_visitors_without_an_account(client, name):
    response = client.get(reverse(f"solo:{name}"))
    assert response.status_code == 200
    assert "_auth_user_id" not in client.session, "looking makes no guest; playing does"


@pytest.mark.django_db
@pytest.mark.parametrize("name", ["table", "table_fragment", "hint", "replay"])
def test_table_pages_need_login(client, solo, name):
    response = client.get(url(name, solo))
    assert response.status_code == 302
    assert reverse("accounts:login") in response["Location"]


@pytest.mark.django_db
@pytest.mark.parametrize("name", ["table", "table_fragment", "replay"])
def test_a_player_not_seated_at_the_table_gets_404(client, solo, stranger, name):
    client.force_login(stranger)
    assert client.get(url(name, solo)).status_code == 404


@pytest.mark.django_db
def test_a_player_not_seated_cannot_act_or_ask_for_hints(client, solo, stranger):
    client.force_login(stranger)
    version = solo.version
    assert post_act(client, solo, action="pass", cards=["2C", "3C", "4C"], version=version).status_code == 404
    assert client.post(url("hint", solo), **HTMX).status_code == 404
    solo.refresh_from_db()
    assert solo.version == version


@pytest.mark.django_db
def test_missing_table_is_404(ann):
    assert ann.get(reverse("solo:table", args=[99999])).status_code == 404


# --------------------------------------------------------------------------- new game


@pytest.mark.django_db
def test_new_game_form_shows_defaults_explained(ann):
    response = ann.get(reverse("solo:new"))
    html = response.content.decode()
    assert response.status_code == 200
    for name in ("passing", "odd_cards", "first_trick_points", "hearts_lead", "lead", "moon",
                 "jack_of_diamonds", "black_maria", "ties", "target", "players", "bot_1"):
        assert f'name="{name}"' in html
    assert re.search(r'value="4"[^>]*checked', html), "4 players preselected"
    assert re.search(r'name="passing" value="standard"[^>]*checked', html)
    assert re.search(r'name="moon" value="others_26"[^>]*checked', html)
    assert "Nobody may play a heart or the Q♠ on the first trick" in html


def valid_form(**overrides):
    data = {
        "players": "4", "target": "100", "bot_1": "easy", "bot_2": "medium", "bot_3": "hard",
        "passing": "standard", "odd_cards": "remove", "first_trick_points": "no", "hearts_lead": "broken",
        "lead": "lowest_club", "moon": "others_26", "jack_of_diamonds": "no", "black_maria": "no",
        "ties": "continue",
    }
    data.update(overrides)
    return data


@pytest.mark.django_db
def test_new_game_creates_a_started_solo_table(ann, player):
    response = ann.post(reverse("solo:new"), valid_form(moon="choose", jack_of_diamonds="yes"))
    table = Table.objects.get()
    assert response.status_code == 302 and response["Location"] == url("table", table)
    assert table.kind == Table.Kind.SOLO and table.status == Table.Status.PLAYING
    assert table.rules["moon"] == "choose" and table.rules["jack_of_diamonds"] is True
    assert table.rules["first_trick_points"] is False and table.rules["target"] == 100
    seats = list(table.seats.order_by("number"))
    assert seats[0].user == player
    assert [seat.bot_level for seat in seats[1:]] == ["easy", "medium", "hard"]


@pytest.mark.django_db
def test_expert_computers_are_offered_and_seated_by_name(ann):
    form = ann.get(reverse("solo:new")).content.decode()
    assert '<option value="expert">Expert</option>' in form
    assert "up to about a second a card" in form
    ann.post(reverse("solo:new"), valid_form(all_bots="expert", bot_1="expert", bot_2="expert", bot_3="expert"))
    table = Table.objects.get()
    assert [seat.bot_level for seat in table.seats.order_by("number")][1:] == ["expert"] * 3
    page = ann.get(url("table", table)).content.decode()
    assert "Expert computer" in page
    assert "against three Expert computers" in ann.get(reverse("home")).content.decode()


@pytest.mark.django_db
def test_new_game_custom_target_and_six_players(ann):
    ann.post(reverse("solo:new"), valid_form(players="6", target="custom", target_custom="42",
                                              bot_4="easy", bot_5="easy", odd_cards="kitty"))
    table = Table.objects.get()
    assert table.rules["players"] == 6 and table.rules["target"] == 42 and table.rules["odd_cards"] == "kitty"
    assert table.seats.count() == 6


@pytest.mark.django_db
def test_the_home_page_says_what_play_now_deals(ann):
    home = ann.get(reverse("home")).content.decode()
    assert "against three Medium computers, to 100 points" in home
    ann.post(reverse("solo:new"), valid_form(players="6", target="custom", target_custom="42",
                                              bot_1="hard", bot_2="easy", bot_3="medium", bot_4="hard", bot_5="hard"))
    home = ann.get(reverse("home")).content.decode()
    assert "against five computers (one Easy, one Medium, three Hard), to 42 points" in home
    ann.post(reverse("solo:play_now"))
    table = Table.objects.order_by("-pk").first()
    assert table.rules["players"] == 6 and table.rules["target"] == 42, "Play now deals what the page says"


@pytest.mark.django_db
@pytest.mark.parametrize("overrides, message", [
    ({"players": "7"}, "Choose 3, 4, 5 or 6 players."),
    ({"target": "custom", "target_custom": ""}, "Enter the number of points the game ends at."),
    ({"target": "custom", "target_custom": "0"}, "The target must be at least 1 point."),
    ({"target": "custom", "target_custom": "abc"}, "Enter a whole number of points"),
    ({"moon": "sometimes"}, "Choose one of: Everyone else takes 26"),
    ({"bot_1": "genius"}, "Choose Easy, Medium, Hard or Expert."),
])
def test_new_game_form_errors_are_clear(ann, overrides, message):
    response = ann.post(reverse("solo:new"), valid_form(**overrides))
    assert response.status_code == 200
    assert message in response.content.decode()
    assert not Table.objects.exists()


# --------------------------------------------------------------------------- the table


@pytest.mark.django_db
def test_table_page_shows_hand_seats_and_pass_direction(ann, solo):
    response = ann.get(url("table", solo))
    html = response.content.decode()
    assert response.status_code == 200
    assert 'id="table"' in html
    game = game_of(solo)
    for card in game.hands[0]:
        assert f'data-card="{card}"' in html
    assert "Pass 3 cards to the left (Ben)" in html
    assert "Hearts not broken" in html and "Deal 1" in html
    assert "Cleo" in html and "Dev" in html
    # the table's socket serves the page: moves go over it (ws-send), nothing polls
    assert f'ws-connect="/ws/table/{solo.pk}/"' in html
    assert "ws-send" in html and "hx-trigger" not in html
    assert 'name="csrfmiddlewaretoken"' in html, "with script off, the forms still post"


@pytest.mark.django_db
def test_action_round_trip_pass_then_play(ann, solo):
    game = game_of(solo)
    cards = [str(c) for c in game.legal(0)[:3]]
    response = post_act(ann, solo, action="pass", cards=cards, version=solo.version)
    assert response.status_code == 200
    html = response.content.decode()
    assert html.lstrip().startswith('<div id="table"')
    game = game_of(solo)
    assert game.phase == "play"
    assert 'class="table-alert"' not in html
    # the cards passed to me are marked with a dot until my first play
    view = game.view(0)
    assert view.received
    sender = presenters.seat_names(solo)[(0 - view.pass_direction.offset(4)) % 4]
    for card in view.received:
        assert re.search(rf'class="playing-card[^"]*received[^"]*"[^>]*data-card="{card}"'
                         rf'[^>]*aria-label="{card.name}, passed to you by {sender}"', html)
    note = re.search(r'<span class="received-note small">(.*?)</span>\s*(?:<button|<span class="hint|<form)', html, re.S)
    assert note and f"{sender} passed you" in note.group(1)
    # play a card if it is my turn (the computers played up to me)
    assert game.to_act == (0,)
    card = str(game.legal(0)[0])
    response = post_act(ann, solo, action="play", card=card, version=solo.version)
    assert response.status_code == 200
    assert Action.objects.filter(table=solo, seat=0, action=card).exists()
    html = response.content.decode()
    assert not re.search(r'class="playing-card[^"]*received', html), "dots gone after my first play"
    assert "passed to you by" not in html and "received-note" not in html


@pytest.mark.django_db
def test_stale_version_is_rejected_with_a_message_and_changes_nothing(ann, solo):
    game = game_of(solo)
    cards = [str(c) for c in game.legal(0)[:3]]
    old = solo.version
    post_act(ann, solo, action="pass", cards=cards, version=old)
    solo.refresh_from_db()
    before = (solo.version, solo.ply)
    game = game_of(solo)
    response = post_act(ann, solo, action="play", card=str(game.legal(0)[0]), version=old)
    assert response.status_code == 200
    html = response.content.decode()
    assert re.search(r'<div class="table-alert">[^<]*earlier position of the table', html)
    solo.refresh_from_db()
    assert (solo.version, solo.ply) == before


@pytest.mark.django_db
def test_illegal_card_is_rejected_with_the_engine_reason(ann, player):
    table = make_table(player, passing="none", seed=1)
    game = game_of(table)
    assert game.to_act == (0,)
    wrong = next(c for c in game.hands[0] if c not in game.legal(0))
    response = post_act(ann, table, action="play", card=str(wrong), version=table.version)
    assert game.why_illegal(0, wrong) in response.content.decode()
    table.refresh_from_db()
    assert table.version == game.ply + 1


@pytest.mark.django_db
def test_dimmed_cards_carry_their_reason(ann, player):
    table = make_table(player, passing="none", seed=1)
    game = game_of(table)
    html = ann.get(url("table", table)).content.decode()
    hand_why = re.search(r'id="t-status"[^>]* data-why="([^"]*)"', html).group(1)
    for card in game.hands[0]:
        why = game.why_illegal(0, card)
        if why:
            # its own reason, or the status line's for the rest of the hand
            own = re.search(rf'class="playing-card dimmed[^"]*"[^>]*data-card="{card}"( data-why="[^"]*")?', html)
            assert own and (own.group(1) or f' data-why="{hand_why}"') == f' data-why="{html_escape(why)}"'
        else:
            assert re.search(rf'class="playing-card legal[^"]*"[^>]*name="card" value="{card}"', html)


@pytest.mark.django_db
def test_bad_fields_get_a_clear_message(ann, solo):
    response = post_act(ann, solo, action="pass", cards=["2C"], version=solo.version)
    assert "Choose exactly 3 cards to pass (you chose 1)." in response.content.decode()
    response = post_act(ann, solo, action="dance", version=solo.version)
    assert "Play a card, pass 3 cards" in response.content.decode()


@pytest.mark.django_db
def test_without_htmx_an_action_redirects_to_the_table(ann, solo):
    game = game_of(solo)
    response = ann.post(url("act", solo), {"action": "pass", "cards": [str(c) for c in game.legal(0)[:3]],
                                           "version": solo.version})
    assert response.status_code == 302 and response["Location"] == url("table", solo)


@pytest.mark.django_db
def test_fragment_poll_answers_204_until_the_version_changes(ann, solo):
    response = ann.get(url("table_fragment", solo), {"since": solo.version}, **HTMX)
    assert response.status_code == 204
    response = ann.get(url("table_fragment", solo), {"since": solo.version - 1}, **HTMX)
    assert response.status_code == 200 and 'id="table"' in response.content.decode()


@pytest.mark.django_db
def test_the_table_never_polls_while_a_computer_must_act(ann, solo, settings):
    settings.TASK_RUNNER = "thread"  # tasks do not run during this request/test transaction
    game = game_of(solo)
    post_act(ann, solo, action="pass", cards=[str(c) for c in game.legal(0)[:3]], version=solo.version)
    html = ann.get(url("table_fragment", solo)).content.decode()
    assert "hx-trigger" not in html and "hx-get" not in html, "computer moves come over the socket"


@pytest.mark.django_db
def test_hint_highlights_the_suggestion_and_gives_the_reason(ann, solo):
    response = ann.post(url("hint", solo), **HTMX)
    html = response.content.decode()
    game = game_of(solo)
    from games import bots

    advice = bots.hint(game.view(0))
    assert advice.reason in html
    for card in advice.action:
        assert re.search(rf'class="playing-card selectable hinted"[^>]*data-card="{card}"', html)
    # the pass hint ticks its three cards, ready to pass
    ticked = re.findall(r'<input type="checkbox" name="cards" value="(\w\w)" class="sr-only" checked>', html)
    assert sorted(ticked) == sorted(str(card) for card in advice.action)
    assert '<span class="pass-count">Ready to pass</span>' in html


@pytest.mark.django_db
def test_hint_when_not_my_turn_says_so(ann, solo):
    game = game_of(solo)
    post_act(ann, solo, action="pass", cards=[str(c) for c in game.legal(0)[:3]], version=solo.version)
    Table.objects.filter(pk=solo.pk).update(status=Table.Status.FINISHED)
    html = ann.post(url("hint", solo), **HTMX).content.decode()
    assert "The game is over: no more hints." in html


# --------------------------------------------------------------------------- a whole game


VISIBLE_CARD = re.compile(r'data-(?:card|face)="([2-9TJQKA][CDSH])"')
MINI = re.compile(r'<span class="mini (?:red|black)">(10|[2-9JQKA])([♣♦♠♥])</span>')


def faces(html):
    return {Card.parse(rank + suit) for rank, suit in MINI.findall(html)} | {
        Card.parse(code) for code in VISIBLE_CARD.findall(html)}


def assert_no_hidden_cards(html, game, me=0):
    """No card of another seat's hand appears, as a code anywhere or as a face-up card; the
    last deal's last trick (shown while the next deal begins) shows only its own cards."""
    html, deal_ended = split_deal_ended(html)
    if deal_ended:
        final = final_trick_cards(game, game.deal_number - 1)
        assert faces(deal_ended) and faces(deal_ended) <= final, f"{faces(deal_ended)} not in the last trick {final}"
    view = game.view(me)
    visible = set(view.hand) | set(view.played) | set(view.passed or ()) | set(view.received or ()) | set(view.kitty)
    for seat in range(game.players):
        if seat == me:
            continue
        for card in game.hands[seat]:
            if card in visible:
                continue  # passed to them by me: I know it
            assert not re.search(rf"(?<![A-Za-z0-9]){card}(?![A-Za-z0-9])", html), f"{card} of seat {seat} leaked"
    shown = faces(html)
    assert shown <= visible, f"cards shown that this seat may not see: {shown - visible}"


def play_whole_game(client, table, check=None):
    for _ in range(2000):
        table.refresh_from_db()
        if table.status != Table.Status.PLAYING:
            return
        game = storage.game_of(table)
        assert game.to_act == (0,) or game.phase == "pass", "computers play until the person must act"
        response = post_act(client, table, version=table.version, **my_move(game))
        assert response.status_code == 200
        assert 'class="table-alert"' not in response.content.decode()
        if check:
            check(response.content.decode(), table)
    raise AssertionError("the game did not end")


@pytest.mark.django_db
@pytest.mark.parametrize("players, rules", [(4, {"target": 30}), (3, {"target": 20, "odd_cards": "kitty"})])
def test_no_response_ever_shows_another_seats_cards(ann, player, players, rules):
    table = make_table(player, bots=["easy"] * (players - 1), seed=11, **rules)

    def check(html, table):
        table.refresh_from_db()
        game = storage.game_of(table)
        assert_no_hidden_cards(html, game)
        for name in ("table", "table_fragment"):
            page = ann.get(url(name, table)).content.decode()
            assert_no_hidden_cards(page, game)
        hint = ann.post(url("hint", table), **HTMX).content.decode()
        assert_no_hidden_cards(hint, game)

    check(ann.get(url("table", table)).content.decode(), table)
    play_whole_game(ann, table, check)
    table.refresh_from_db()
    assert table.status == Table.Status.FINISHED


@pytest.mark.django_db
def test_game_over_screen_shows_winners_and_final_scores(ann, player):
    table = make_table(player, target=20, seed=5)
    play_whole_game(ann, table)
    game = game_of(table)
    html = ann.get(url("table", table)).content.decode()
    assert "Game over" in html
    names = presenters.seat_names(table)
    winners = [("You" if s == 0 else names[s]) for s in game.winners]
    for name in winners:
        assert name in html
    for score in game.scores:
        assert f'<td class="num">{score}</td>' in html
    assert url("replay", table) in html
    assert "hx-trigger" not in html


@pytest.mark.django_db
def test_deal_summary_after_the_first_deal(ann, player):
    table = make_table(player, target=200, seed=5)
    for _ in range(200):
        game = game_of(table)
        if game.deal_number == 2:
            break
        post_act(ann, table, version=table.version, **my_move(game))
    game = game_of(table)
    html = ann.get(url("table", table)).content.decode()
    view = game.view(0)
    if view.current_trick or view.tricks:
        pytest.skip("someone else led deal 2 already")
    assert "Deal 1 scored" in html
    for points in view.deal_points:
        assert f"+{points}" in html


@pytest.mark.django_db
def test_resuming_shows_exactly_the_same_table(ann, solo):
    game = game_of(solo)
    post_act(ann, solo, action="pass", cards=[str(c) for c in game.legal(0)[:3]], version=solo.version)
    first = ann.get(url("table_fragment", solo)).content.decode()
    again = ann.get(url("table_fragment", solo)).content.decode()
    strip = lambda html: re.sub(r'name="csrfmiddlewaretoken" value="[^"]+"', "", html)  # noqa: E731
    assert strip(first) == strip(again)


# --------------------------------------------------------------------------- moon choice


MOON_HANDS = [
    "AC KC QC JC AD KD QD JD AS KS QS AH KH".split(),
    "2C 3C 4C 5C 6C 7C 8C 9C TC 2D 3D 4D 5D".split(),
    "6D 7D 8D 9D TD 2S 3S 4S 5S 6S 7S 8S 9S".split(),
    "TS JS 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH".split(),
]


@pytest.mark.django_db
def test_moon_choice_buttons_for_the_shooter_then_the_deal_summary(ann, player):
    from games.engine import Rules

    table = services.create_table(player, Rules(passing="none", moon="choose"),
                                  seat_bots=[None, "easy", "easy", "easy"], seed=1)
    services.start_table(table.pk, hands=MOON_HANDS)
    for _ in range(20):
        game = game_of(table)
        if game.phase != "play":
            break
        post_act(ann, table, action="play", card=str(game.legal(0)[-1]), version=table.version)
    assert game.phase == "moon_choice"
    html = ann.get(url("table", table)).content.decode()
    assert "You shot the moon!" in html
    assert 'name="choice" value="subtract"' in html and 'name="choice" value="add"' in html
    assert "Take 26 off my score" in html and "Everyone else scores 26" in html
    assert "You -26, Ben 0, Cleo 0, Dev 0" in html and "You 0, Ben 26, Cleo 26, Dev 26" in html
    hint = ann.post(url("hint", table), **HTMX).content.decode()
    assert "moon-choice hinted" in hint
    html = post_act(ann, table, action="moon", choice="subtract", version=table.version).content.decode()
    game = game_of(table)
    assert game.scores == (-26, 0, 0, 0)
    assert "Deal 1 scored" in html and "You shot the moon" in html


# --------------------------------------------------------------------------- my games and replay


@pytest.mark.django_db
def test_my_games_lists_unfinished_and_finished(ann, player, stranger):
    running = make_table(player, seed=1)
    done = make_table(player, target=15, seed=2)
    play_whole_game(ann, done)
    other = make_table(stranger, seed=3)
    html = ann.get(reverse("solo:my_games")).content.decode()
    assert f'data-table="{running.pk}"' in html and f'data-table="{done.pk}"' in html
    assert f'data-table="{other.pk}"' not in html
    assert url("table", running) in html and url("replay", done) in html
    assert url("replay", running) not in html
    assert html.index("In progress") < html.index(f'data-table="{running.pk}"') < html.index("Finished")
    assert html.index("Finished") < html.index(f'data-table="{done.pk}"')


@pytest.mark.django_db
def test_replay_of_an_unfinished_game_is_refused_and_shows_no_hands(ann, solo):
    response = ann.get(url("replay", solo), {"ply": 1})
    assert response.status_code == 403
    html = response.content.decode()
    game = game_of(solo)
    for seat in range(1, 4):
        for card in game.hands[seat]:
            assert not re.search(rf"(?<![A-Za-z0-9]){card}(?![A-Za-z0-9])", html)
    assert not faces(html)


@pytest.mark.django_db
def test_replay_steps_through_a_finished_game(ann, player):
    table = make_table(player, target=15, seed=2)
    play_whole_game(ann, table)
    table.refresh_from_db()
    saved = storage.saved_game(table)
    last = len(saved["log"])
    html = ann.get(url("replay", table)).content.decode()
    assert f"move {last} of {last}" in html
    assert "every hand is shown" in html
    start = ann.get(url("replay", table), {"ply": 0}).content.decode()
    states = list(Game.replay(saved))
    for seat in range(4):  # the whole deal, every hand face up
        for card in states[0].hands[seat]:
            assert f'data-card="{card}"' in start
    assert "The cards are dealt." in start
    assert f'href="?ply={last}"' in start and 'href="?ply=1"' in start
    step = ann.get(url("replay", table), {"ply": 1}, **HTMX).content.decode()
    assert step.lstrip().startswith('<div id="replay"')
    entry = saved["log"][0]
    assert "passed" in step or "played" in step
    assert presenters.seat_names(table)[entry["seat"]] in step or "You" in step
    # clamped and tolerant
    assert ann.get(url("replay", table), {"ply": 99999}).status_code == 200
    bad = ann.get(url("replay", table), {"ply": "x"})
    assert bad.status_code == 400 and "ply must be a move number" in bad.content.decode()


# --------------------------------------------------------------------------- presenter API for live play


@pytest.mark.django_db
def test_live_rendering_uses_ws_send_and_never_polls(player):
    table = make_table(player, kind=Table.Kind.FRIENDS)
    html = presenters.render_table(table, 0)
    assert html.lstrip().startswith('<div id="table"')
    assert "ws-send" in html and "hx-post" not in html and "hx-trigger" not in html
    assert 'name="action" value="pass"' in html
    assert 'name="version"' not in html, "the script adds the version the player saw (#t-state)"
    assert 'id="t-state" hidden data-version="%d"' % table.version in html
    assert "Hint" not in html
    ctx = presenters.table_context(table, 0)
    assert ctx["live"] and ctx["turn_deadline"] is None
    assert {"name", "connected", "standing_in", "hand_size"} <= set(ctx["seats"][1])


def test_parse_move_reads_http_and_ws_frames():
    from django.http import QueryDict

    post = QueryDict("action=pass&cards=2C&cards=3C&cards=4C&version=5")
    QS = Card.parse("QS")
    assert protocol.parse_move(post) == ([Card.parse("2C"), Card.parse("3C"), Card.parse("4C")], 5)
    assert protocol.parse_move({"action": "play", "card": "QS", "version": "9"}) == (QS, 9)
    assert protocol.parse_move({"action": "moon", "choice": "subtract", "version": 3}) == ("subtract", 3)
    # live frames: the chosen-card field and (maybe) the pressed button's own value
    assert protocol.parse_move({"action": "play", "card": ["", "QS"], "version": "9"}) == (QS, 9)
    assert protocol.parse_move({"action": "play", "card": ["QS", "QS"], "version": "9"}) == (QS, 9)
    for not_a_card in ("ZZ", "x" * 10000, "Q"):
        with pytest.raises(protocol.BadMove, match="is not a card"):
            protocol.parse_move({"action": "play", "card": not_a_card, "version": "9"})
    with pytest.raises(protocol.BadMove):
        protocol.parse_move({"action": "pass", "cards": "2C", "version": "1"})
    with pytest.raises(protocol.BadMove):
        protocol.parse_move({"action": "play", "card": "QS", "version": "x"})
    for version in ("²", "-1", "1e3", True, {"a": 1}, 10**12):
        with pytest.raises(protocol.BadMove):
            protocol.parse_move({"action": "play", "card": "QS", "version": version})
    for action in ({"a": 1}, 3, None, ["moon", "play"]):
        with pytest.raises(protocol.BadMove):
            protocol.parse_move({"action": action, "card": "QS"})


@pytest.mark.django_db
def test_a_pass_made_while_others_passed_is_still_applied(ann, solo):
    """Passing is simultaneous: the computers passed after the page was drawn (version 1)."""
    assert solo.version == 4
    cards = [str(c) for c in game_of(solo).legal(0)[:3]]
    html = post_act(ann, solo, action="pass", cards=cards, version=1).content.decode()
    assert 'class="table-alert"' not in html
    assert game_of(solo).phase == "play"
    html = post_act(ann, solo, action="pass", cards=cards, version=1).content.decode()
    assert "earlier position" in html, "but not twice"


@pytest.mark.django_db
def test_home_offers_solo_learn_and_resume(ann, solo):
    html = ann.get(reverse("home")).content.decode()
    assert reverse("solo:new") in html and reverse("solo:learn") in html and reverse("solo:my_games") in html
    assert url("table", solo) in html


@pytest.mark.django_db
def test_navigation_links_to_solo_pages(ann):
    html = ann.get(reverse("solo:my_games")).content.decode()
    for name in ("solo:new", "solo:learn", "solo:my_games"):
        assert f'href="{reverse(name)}"' in html


@pytest.mark.django_db
def test_live_fragment_shows_connection_state_and_turn_countdown(player, stranger):
    from datetime import timedelta

    from django.utils import timezone

    from games.engine import Rules
    from games.models import Seat

    table = services.create_table(player, Rules(), kind=Table.Kind.FRIENDS, seat_bots=[None, None, "easy", "easy"],
                                  seed=4, turn_timer_seconds=30)
    Seat.objects.filter(table=table, number=1).update(user=stranger, connected=False)
    services.start_table(table.pk)
    table.refresh_from_db()
    deadline = timezone.now() + timedelta(seconds=30)
    Table.objects.filter(pk=table.pk).update(turn_deadline=deadline)
    table.refresh_from_db()
    html = presenters.render_table(table, 0)
    assert f'data-deadline="{deadline.isoformat()}"' in html
    assert "zed" in html and "offline" in html
    assert 'data-chosen="card"' not in html  # passing first: the pass form
    ctx = presenters.table_context(table, 0)
    assert ctx["turn_deadline"] == deadline.isoformat()
    assert ctx["seats"][1]["is_person"] and not ctx["seats"][1]["connected"]
    html1 = presenters.render_table(table, 1)
    game = game_of(table)
    assert_no_hidden_cards(html1, game, me=1)


@pytest.mark.django_db
def test_a_table_not_started_yet_renders_a_waiting_fragment(ann, player):
    from games.engine import Rules

    table = services.create_table(player, Rules(), seat_bots=[None, "easy", "easy", "easy"], seed=1)
    html = ann.get(url("table", table)).content.decode()
    assert "Waiting for the game to start." in html
    assert ann.get(reverse("solo:my_games")).status_code == 200


def test_resume_of_a_live_game_opens_the_live_table_from_my_games_and_the_home_page(ann, player, stranger):
    live = make_table(player, kind=Table.Kind.FRIENDS, bots=("easy", "easy", "easy"))
    room = reverse("live:room", args=[live.code])
    for page in (reverse("solo:my_games"), reverse("home")):
        assert f'href="{room}"' in ann.get(page).content.decode(), page
    response = ann.get(url("table", live))
    assert response.status_code == 302 and response["Location"] == room
    assert ann.get(room).status_code == 200


@pytest.mark.parametrize("since", ["²", "-1", "abc", "1e3", "99999999999"])
def test_polling_since_something_that_is_not_a_version_is_a_clear_400(ann, solo, since):
    response = ann.get(url("table_fragment", solo), {"since": since})
    assert response.status_code == 400
    assert "since must be a table version" in response.content.decode()


def test_the_kitty_rule_is_told_whole_on_the_new_game_form_and_at_the_table(ann, player):
    form = ann.get(reverse("solo:new")).content.decode()
    assert "lie face down until whoever takes the first trick takes them too" in form
    assert "turned face up for everyone" in form
    table = make_table(player, bots=("easy", "easy"), odd_cards="kitty")
    html = ann.get(url("table", table)).content.decode()
    assert "Kitty: 1 card lies face down until the winner of the first trick takes it (with any points); " \
           "then it is turned face up for everyone." in html
    five = make_table(player, bots=("easy",) * 4, odd_cards="kitty", seed=3)
    assert "Kitty: 2 cards lie face down until the winner of the first trick takes them" in ann.get(url("table", five)).content.decode()


def test_black_maria_and_omnibus_moon_texts_take_their_numbers_from_the_engine(ann, player):
    """Seat 0 holds every club, leads them all and takes every card: with Black Maria and the
    Omnibus jack the deal is worth 43, and the jack's -10 shows in both choices' totals."""
    from games.engine import Rules

    rules = Rules(passing="none", moon="choose", black_maria=True, jack_of_diamonds=True)
    table = seat_zero_takes_every_card(player, rules, level="easy")
    game = game_of(table)
    assert game.phase == "moon_choice" and game.moon_outcomes["subtract"][0] == -53
    html = ann.get(url("table", table)).content.decode()
    assert "You took all hearts, the Q♠, K♠ and A♠." in html
    assert "Take 43 off my score" in html and "Everyone else scores 43" in html
    assert "You −53" in html or "You -53" in html, "the jack's −10 is in the total"
    post_act(ann, table, action="moon", choice="subtract")
    table.refresh_from_db()
    html = ann.get(url("table", table)).content.decode()
    assert "took 43 off your score" in html


def test_new_game_settings_are_remembered_and_play_now_uses_them(ann, player):
    ann.post(reverse("solo:new"), valid_form(players="3", target="50", passing="none", bot_1="hard", bot_2="easy"))
    form = ann.get(reverse("solo:new")).content.decode()
    assert re.search(r'<input type="radio" name="players" value="3"[^>]*checked', form)
    assert re.search(r'<option value="hard" selected>', form)
    response = ann.post(reverse("solo:play_now"))
    table = Table.objects.get(pk=int(response["Location"].strip("/").split("/")[1]))
    assert (table.players, table.rules["target"], table.rules["passing"]) == (3, 50, "none")
    assert [seat.bot_level for seat in table.seats.order_by("number")] == ["", "hard", "easy"]


def test_one_control_sets_every_computers_level(ann, player):
    response = ann.post(reverse("solo:new"), valid_form(players="6", all_bots="hard", bot_1="easy", bot_3="medium"))
    table = Table.objects.get(pk=int(response["Location"].strip("/").split("/")[1]))
    assert [seat.bot_level for seat in table.seats.order_by("number")] == ["", *["hard"] * 5]
    assert "Every computer" in ann.get(reverse("solo:new")).content.decode()


@pytest.mark.parametrize("asked", [True, False])
def test_an_only_legal_card_is_played_by_itself_when_the_player_asks(ann, player, asked):
    from tests.live.restart_scenario import seed_where

    rules = Rules(passing="none")
    table = services.create_table(player, rules, seat_bots=[None, "easy", "easy", "easy"],
                                  seed=seed_where(0, rules), autoplay_forced=asked)
    services.start_table(table.pk)  # the player holds the 2♣: the first lead is forced
    first = Action.objects.filter(table=table).order_by("ply").first()
    if asked:
        assert (first.seat, first.action, first.actor) == (0, "2C", Action.Actor.FORCED)
        assert tuple(game_of(table).to_act) == (0,), "then the computers play up to the player"
    else:
        assert first is None and tuple(game_of(table).to_act) == (0,)


def test_the_new_game_form_offers_to_play_an_only_card_by_itself_and_remembers_it(ann, player):
    response = ann.post(reverse("solo:new"), valid_form(autoplay_forced="on"))
    table = Table.objects.get(pk=int(response["Location"].strip("/").split("/")[1]))
    assert table.autoplay_forced
    assert re.search(r'<input type="checkbox" name="autoplay_forced"[^>]*checked', ann.get(reverse("solo:new")).content.decode())
    ann.post(reverse("solo:new"), valid_form())
    assert not re.search(r'name="autoplay_forced"[^>]*checked', ann.get(reverse("solo:new")).content.decode())


def test_a_forced_card_left_waiting_by_a_restart_is_played_when_work_is_planned_again(player):
    from tests.live.restart_scenario import seed_where, tasks_lost

    rules = Rules(passing="none")
    table = services.create_table(player, rules, seat_bots=[None, "easy", "easy", "easy"],
                                  seed=seed_where(0, rules), autoplay_forced=True)
    with tasks_lost():
        services.start_table(table.pk)
    assert not Action.objects.filter(table=table).exists()
    assert services.replan_playing_tables() == 1
    assert Action.objects.filter(table=table, seat=0, actor=Action.Actor.FORCED).exists()


@pytest.mark.parametrize("asked", [True, False])
def test_a_deal_whose_every_card_left_is_forced_is_played_out_at_once(player, settings, monkeypatch, asked):
    settings.BOT_DELAY_SECONDS = 1.0
    rules = Rules(passing="none")
    table = services.create_table(player, rules, seat_bots=[None, "easy", "easy", "easy"], seed=3, autoplay_forced=asked)
    planned = []
    monkeypatch.setattr(services, "schedule", lambda name, *args, countdown=0: planned.append((name, countdown)))

    def computers_pause(game) -> float:
        planned.clear()
        services.plan_next(table, game)
        (countdown,) = [countdown for name, countdown in planned if name == "games.play_computer_turns"]
        return countdown

    def to_a_computers_turn(game, cards_left):
        while max(map(len, game.hands)) > cards_left or game.turn == 0:
            game.apply(game.turn, game.legal(game.turn)[0])
        return game

    early = to_a_computers_turn(Game.new(rules, seed=3), 12)
    assert not early.forced_to_end_of_deal() and computers_pause(early) == 1.0, "choices are left: the usual pause"
    last = to_a_computers_turn(Game.new(rules, seed=3), 1)
    assert last.forced_to_end_of_deal()
    assert computers_pause(last) == (0 if asked else 1.0), "the last trick: nobody has a choice left"
