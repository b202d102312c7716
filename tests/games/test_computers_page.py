"""The page "How strong are the computers": the arena's published figures, the command and
seed that reproduce each, and what each level does."""

import json

import pytest
from django.urls import reverse

from games import bots
from games.bots import arena, figures


def _run(table, tmp_path, *extra):
    path = tmp_path / "strength.json"
    argv = ["--players", ",".join(table), "--hands", "2", "--seed", "4", "--quiet", "--json", str(path), *extra]
    assert arena.main(argv) == 0
    return path


def test_a_saved_run_names_the_command_that_reproduces_it(tmp_path, capsys):
    path = _run(["medium", "easy", "easy"], tmp_path)
    (run,) = figures.load(path)
    assert run["command"] == "python -m games.bots.arena --players medium,easy,easy --hands 2 --seed 4"
    # running that command again gives the same figures
    again = tmp_path / "again.json"
    assert arena.main(run["command"].split()[3:] + ["--quiet", "--json", str(again)]) == 0
    (second,) = figures.load(again)
    assert [r["points_per_hand"] for r in second["levels"]] == [r["points_per_hand"] for r in run["levels"]]
    assert second["play"] == run["play"]
    # a second run of the same command replaces the first; another command is added
    _run(["medium", "easy", "easy"], tmp_path)
    _run(["medium", "easy", "easy"], tmp_path, "--rules", "moon=choose")
    assert [r["command"].endswith("moon=choose") for r in figures.load(path)] == [False, True]


@pytest.mark.django_db
def test_the_page_shows_the_published_figures(client, tmp_path, monkeypatch):
    path = _run(["hard", "medium", "medium"], tmp_path, "--samples", "2")
    _run(["easy", "easy", "easy"], tmp_path)
    monkeypatch.setattr(figures, "FIGURES", path)
    html = client.get(reverse("solo:computers")).content.decode()
    runs = figures.load(path)
    match = next(r for r in runs if len(set(r["table"])) > 1)
    assert "Hard against two Medium" in html
    assert match["command"] in html and "--seed 4" in html
    for row in match["levels"]:
        assert f"{row['points_per_hand']:.2f} ± {row['ci']:.2f}" in html
    c = match["comparisons"][0]
    assert f"{-c['difference']:.2f} ± {c['ci']:.2f}" in html
    assert "Easy at every seat" not in html and 'id="play-statistics"' in html
    for level in bots.LEVELS:
        assert bots.LEVEL_DESCRIPTIONS[level][:40] in html


@pytest.mark.django_db
def test_the_committed_figures_are_on_the_page(client):
    runs = figures.load()
    html = client.get(reverse("solo:computers")).content.decode()
    assert "How strong are the computers" in html
    for run in runs:
        assert run["command"] in html
    # every committed command is one the arena accepts
    for run in runs:
        words = run["command"].split()
        assert words[:3] in (["python", "-m", "games.bots.arena"], ["python", "-m", "games.bots.outside_arena"])


def test_committed_figures_are_json():
    text = figures.FIGURES.read_text() if figures.FIGURES.exists() else "[]"
    assert isinstance(json.loads(text), list)
