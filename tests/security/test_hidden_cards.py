"""No card of another seat's hand in any page or fragment a seated player can open, at any
moment of whole games, for every seat.

Games are played through games.services one move at a time (computers choose every move,
also for the people); after each move every person at the table opens every page about the
table (found by walking the URL resolver: routes taking the table's id or room code), plain
and as htmx, and the other pages now and then. The pages must not name a card that another
seat holds (see tests.security.cards for how precisely cards are matched).
"""
import time

import pytest
from django.test import Client

from games import services, storage
from games.engine import FULL_DECK, Rules
from games.models import Seat, Table
from tests.security.cards import (
    cards_mentioned, final_trick_cards, hidden_from, mention_contexts, rules_sentences, split_deal_ended,
)
from tests.security.play import StepDriver
from tests.security.urlwalk import walk

pytestmark = pytest.mark.django_db

NEVER_GET = {"accounts:logout"}
OTHER_PAGES_EVERY = 20  # steps between visits to the pages that are not about one table


_PAGES: dict = {}


def seated_pages(table, user):
    """(url, about_this_table) for every GET page a seated player might open."""
    key = (table.pk, table.code, user.username)
    if key not in _PAGES:
        _PAGES[key] = _seated_pages(table, user)
    return _PAGES[key]


def _seated_pages(table, user):
    samples = {"table_id": [str(table.pk)], "code": [table.code], "username": [user.username]}
    pages = []
    for route in walk(samples):
        if route.url is None or route.pattern.startswith("admin/") or route.name in NEVER_GET:
            continue
        if route.pattern.startswith("static/") or route.name == "healthz":
            continue
        about_table = bool({"table_id", "code"} & set(route.kwarg_names))
        if set(route.kwarg_names) - {"table_id", "code", "username"}:
            continue  # e.g. password reset links: nothing about games
        pages.append((route.url, about_table))
    return pages


def baseline_mentions(table, url_user):
    """Cards named on the pages that are not about one table, for someone with no games at
    all (the forms' rule texts): those mentions cannot come from a hand."""
    from django.contrib.auth import get_user_model

    from games.engine import FULL_DECK

    fresh, _ = get_user_model().objects.get_or_create(username="nobody-yet")
    client = Client()
    client.force_login(fresh)
    out = {}
    for url, about_table in seated_pages(table, url_user):
        if not about_table:
            response = client.get(url)
            out[url] = cards_mentioned(response.content, FULL_DECK) if response.status_code == 200 else set()
    return out


def check_pages(clients, table, game, step, visited, include_other_pages, baseline):
    leaks = []
    # The room's code is random letters in its links ("/live/room/TH-AIRq…"): not a card.
    public = rules_sentences(table.rules) + ([table.code] if table.code else [])
    for seat_number, (user, client) in clients.items():
        hidden = hidden_from(game, seat_number)
        for url, about_table in seated_pages(table, user):
            if not (about_table or include_other_pages) or 405 in visited.get(url, ()):
                continue
            for headers in ({}, {"HTTP_HX_REQUEST": "true"}):
                if headers and not include_other_pages and 200 in visited.get((url, "plain"), ()):
                    continue  # htmx variants every few steps, or where the plain page is not a page
                response = client.get(url, **headers)
                visited.setdefault(url, set()).add(response.status_code)
                visited.setdefault((url, "htmx" if headers else "plain"), set()).add(response.status_code)
                if response.status_code != 200 or getattr(response, "streaming", False):
                    continue
                content, deal_ended = split_deal_ended(response.content)
                found = cards_mentioned(content, hidden, public) - baseline.get(url, set())
                if found:
                    where = " | ".join(mention_contexts(content, found, public))
                    leaks.append(f"step {step} seat {seat_number} {url} {headers}: {where}")
                if deal_ended:  # the last deal's last trick, and nothing else
                    visited[("deal ended",)] = visited.get(("deal ended",), 0) + 1
                    shown = cards_mentioned(deal_ended, FULL_DECK, public)
                    final = final_trick_cards(game, game.deal_number - 1)
                    if not shown or shown - final:
                        leaks.append(f"step {step} seat {seat_number} {url}: the last deal's trick shows "
                                     f"{sorted(map(str, shown))}, not {sorted(map(str, final))}")
    return leaks


def play_and_check(table_id, monkeypatch, max_steps=2000):
    driver = StepDriver(table_id, monkeypatch)
    table = driver.table()
    clients = {}
    for seat in table.seats.select_related("user"):
        if seat.user_id:
            client = Client()
            client.force_login(seat.user)
            clients[seat.number] = (seat.user, client)
    visited, leaks, step = {}, [], 0
    baseline = baseline_mentions(table, next(iter(clients.values()))[0])
    phases = set()
    started = time.monotonic()
    while True:
        table = driver.table()
        game = storage.game_of(table)
        phases.add(game.phase)
        leaks += check_pages(clients, table, game, step, visited, step % OTHER_PAGES_EVERY == 0, baseline)
        assert not leaks, "hidden cards shown:\n" + "\n".join(leaks[:20])
        if not driver.step():
            break
        step += 1
        assert step < max_steps
    table = driver.table()
    game = storage.game_of(table)
    phases.add(game.phase)
    leaks += check_pages(clients, table, game, step, visited, True, baseline)
    assert not leaks, "hidden cards shown:\n" + "\n".join(leaks[:20])
    assert table.status == Table.Status.FINISHED and game.is_over
    if game.deal_number > 1:
        assert visited.get(("deal ended",)), "the last deal's last trick was shown and checked"
    ok_pages = sorted(url for url, codes in visited.items() if isinstance(url, str) and 200 in codes)
    return {"steps": step, "pages": ok_pages, "phases": phases, "seconds": time.monotonic() - started}


def test_solo_game_never_shows_a_computers_cards(monkeypatch, ann):
    table = services.create_table(ann, Rules(target=26), seat_bots=[None, "easy", "medium", "easy"], seed=11)
    services.start_table(table.pk)
    result = play_and_check(table.pk, monkeypatch)
    assert result["steps"] > 52 and {"pass", "play", "over"} <= result["phases"]
    if any("table_id" in route.kwarg_names for route in walk()):
        assert any(f"/{table.pk}/" in url for url in result["pages"]), result["pages"]


def test_learn_game_with_a_kitty_and_moon_choice_never_shows_hidden_cards(monkeypatch, ann):
    rules = Rules(players=3, odd_cards="kitty", moon="choose", target=1)
    table = services.create_table(ann, rules, kind=Table.Kind.LEARN, seat_bots=[None, "easy", "easy"], seed=5)
    services.start_table(table.pk)
    play_and_check(table.pk, monkeypatch)


def test_friend_room_with_four_people_every_seat_sees_only_its_own_hand(monkeypatch, ann, bob, django_user_model):
    cat = django_user_model.objects.create_user("cat")
    dan = django_user_model.objects.create_user("dan")
    rules = Rules(target=1, passing="standard")  # one whole deal
    table = services.create_table(ann, rules, kind=Table.Kind.FRIENDS, seat_bots=[None] * 4, seed=21)
    for number, user in enumerate((bob, cat, dan), start=1):
        Seat.objects.filter(table=table, number=number).update(user=user)
    services.start_table(table.pk)
    result = play_and_check(table.pk, monkeypatch)
    assert result["steps"] > 52


def test_five_players_two_people_three_computers(monkeypatch, ann, bob):
    rules = Rules(players=5, target=1, jack_of_diamonds=True, black_maria=True)
    table = services.create_table(ann, rules, kind=Table.Kind.FRIENDS, seat_bots=[None, "easy", None, "easy", "hard"],
                                  seed=8)
    Seat.objects.filter(table=table, number=2).update(user=bob)
    services.start_table(table.pk)
    play_and_check(table.pk, monkeypatch)
