import re

import pytest
from django.urls import reverse

from games import storage
from games.table import learn
from games.models import Table

HTMX = {"HTTP_HX_REQUEST": "true"}
NOTE = re.compile(r'data-note="([a-z_]+)"')


def notes_in(html):
    return NOTE.findall(html)


@pytest.mark.django_db
def test_learn_page_offers_a_lesson(ann):
    response = ann.get(reverse("solo:learn"))
    assert response.status_code == 200
    assert "Start the lesson" in response.content.decode()


@pytest.mark.django_db
def test_a_guided_hand_shows_each_note_once_and_ends_after_the_hand(ann, player):
    response = ann.post(reverse("solo:learn"))
    table = Table.objects.get(kind=Table.Kind.LEARN)
    assert response["Location"] == reverse("solo:table", args=[table.pk])
    assert table.seed == learn.LESSON_SEED and table.rules["target"] == 1
    assert [s.bot_level for s in table.seats.order_by("number")][1:] == ["easy"] * 3

    page = ann.get(response["Location"]).content.decode()
    assert "Practice hand" in page
    seen = [notes_in(page)]
    assert seen[0] == ["passing"], "the first thing explained is passing"
    assert "Passing 3 cards" in page

    act = reverse("solo:act", args=[table.pk])
    for _ in range(60):
        table.refresh_from_db()
        if table.status != Table.Status.PLAYING:
            break
        game = storage.game_of(table)
        if game.phase == "pass":
            fields = {"action": "pass", "cards": [str(c) for c in game.legal(0)[-3:]]}
        elif game.phase == "moon_choice":
            fields = {"action": "moon", "choice": "add"}
        else:
            fields = {"action": "play", "card": str(game.legal(0)[0])}
        html = ann.post(act, {**fields, "version": table.version}, **HTMX).content.decode()
        seen.append(notes_in(html))
    table.refresh_from_db()
    assert table.status == Table.Status.FINISHED, "the lesson is one hand"
    final = ann.get(reverse("solo:table", args=[table.pk])).content.decode()
    assert "Hand complete" in final and "Play a real game" in final

    # each note is shown during one stretch of the hand only (once per table)
    for key in {key for keys in seen for key in keys}:
        shown = [i for i, keys in enumerate(seen) if key in keys]
        assert shown == list(range(shown[0], shown[-1] + 1)), f"note {key} came back: {shown}"
    everything = {key for keys in seen for key in keys}
    assert {"passing", "received", "first_lead", "follow_suit", "first_trick", "queen", "points",
            "scoring", "moon"} <= everything, everything
    assert "hearts_broken" in everything  # hearts always get played in a whole hand


@pytest.mark.django_db
def test_continue_the_lesson(ann, player):
    ann.post(reverse("solo:learn"))
    table = Table.objects.get(kind=Table.Kind.LEARN)
    html = ann.get(reverse("solo:learn")).content.decode()
    assert "Continue your lesson" in html and reverse("solo:table", args=[table.pk]) in html


def test_lesson_deal_is_friendly():
    from games.engine import Game

    game = Game.new(learn.lesson_rules(), seed=learn.LESSON_SEED)
    hand = {str(c) for c in game.hands[0]}
    assert "2C" in hand and not hand & {"QS", "KS", "AS"}
