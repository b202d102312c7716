"""Writes: what a finished game does to ratings and statistics.

The games app calls these inside the transaction that marks the game finished (or abandoned);
each game is processed **exactly once**: the first call for a ``game_key`` creates its unique
:class:`~ratings.models.RatedGame` row, any later call (a retried task, a duplicate event, a
concurrent worker) finds the key taken and changes nothing.

Rules
-----
1. Only rated games are rated: the games app calls :func:`apply_game_result` for rated tables
   and may call :func:`record_game_stats` for other live games (statistics only).
2. Ratings are per table size (3, 4, 5 or 6 players); a player starts provisional and stays so
   until ``PROVISIONAL_GAMES`` (10) rated games at that size.
3. Computer seats (``user_id=None``) are not rated and are left out of the ranking: people are
   ranked among themselves only.
4. People are ranked in the order of the game's result, each seat's ``place``, which the games
   app decides and shows (``games.table.conduct.standings``: lower score first, equal scores share a
   place, a person who dropped after everyone who played to the end). A tie — a shared win in
   particular — counts halfway between a win and a loss against each player tied with you (see
   :mod:`ratings.skill` for how openskill is corrected for that).
5. A person who dropped (left; a computer finished the game in their seat) is therefore ranked
   below everyone who played to the end. If every person dropped, they are ranked by when they
   left: whoever stayed longest first (those who left at the same moment tie; all tie when a
   moment is unknown).
6. Nothing is rated unless at least two people sat at the table. Such a game is still
   recorded once, and counts in the unrated statistics.
7. Abandoned games (ended by staff, or everyone left) — :func:`apply_abandoned_game`: the game
   is not rated, except that each person who had dropped before it was abandoned takes their
   loss: they are rated last against the people still seated (who tie above them). The people
   still seated keep their ratings and their statistics do not count the game. If nobody had
   dropped, or nobody was still seated, nothing is rated.

Statistics (:class:`~ratings.models.PlayerStats`, per table size, rated and unrated apart):
games, wins (shared wins included, and also counted apart), games left early, moons shot, and
points and deals of games played to the end (for average points per deal). A dropped player's
game counts as a game left early, never as a win, and its points are not theirs (a computer
finished it), so only their moons count.
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime

from django.db import IntegrityError, transaction
from django.db.models import F

from ratings import skill
from ratings.models import TABLE_SIZES, PlayerStats, RatedGame, Rating, RatingChange


@dataclass(frozen=True)
class SeatResult:
    """One seat's result at the end of a game.

    ``user_id`` is None for a computer seat. ``place`` is the seat's place in the game's result
    (1 is best), None for a game that did not finish. ``dropped`` marks a person who left and
    whose seat a computer finished. ``moons`` and ``deals`` count what the person played
    themselves (not deals a computer played for them).
    """

    user_id: int | None
    final_score: int
    place: int | None = None
    dropped: bool = False
    moons: int = 0
    deals: int = 0
    left_at: datetime | None = None  # when a person who dropped left (rule 5)

    @property
    def is_person(self) -> bool:
        return self.user_id is not None

    @property
    def won(self) -> bool:
        """First in a finished game, and not counted as having left."""
        return self.place == 1 and not self.dropped


def apply_game_result(game_key: str, table_size: int, results: list[SeatResult]) -> list[RatingChange] | None:
    """Rate a finished rated game, once. Call it inside the ``transaction.atomic()`` block that
    marks the game finished.

    Returns the new :class:`RatingChange` rows in seat order (an empty list when rule 6 leaves
    nothing to rate), or None when ``game_key`` was already processed (nothing changed).
    """
    _require_atomic("apply_game_result")
    _validate(table_size, results)
    _require_places(results)
    people = _people(results)
    if not _enough_people(people):
        if _claim(game_key, table_size, RatedGame.Status.TOO_FEW_PLAYERS) is None:
            return None
        _add_stats(people, table_size, rated=False, shared_win=_shared_win(results))
        return []

    game = _claim(game_key, table_size, RatedGame.Status.RATED)
    if game is None:
        return None
    ranks = _rank_by_place(people) if any(not p.dropped for p in people) else _leaving_order(people)
    changes = _rate(game, table_size, people, ranks, persist=people)
    _add_stats(people, table_size, rated=True, shared_win=_shared_win(results))
    return changes


def apply_abandoned_game(game_key: str, table_size: int, results: list[SeatResult]) -> list[RatingChange] | None:
    """Record an abandoned rated game, once (rule 7): only people who had dropped are rated.

    Call it inside the ``transaction.atomic()`` block that marks the game abandoned. Returns the
    leavers' :class:`RatingChange` rows (maybe none), or None when already processed.
    """
    _require_atomic("apply_abandoned_game")
    _validate(table_size, results)
    people = _people(results)
    game = _claim(game_key, table_size, RatedGame.Status.ABANDONED)
    if game is None:
        return None
    leavers = [p for p in people if p.dropped]
    seated = [p for p in people if not p.dropped]
    if not leavers or not seated:
        return []
    ranks = [1 if not p.dropped else 1 + len(seated) for p in people]
    changes = _rate(game, table_size, people, ranks, persist=leavers)
    _add_stats(leavers, table_size, rated=True, shared_win=False)
    return changes


def record_game_stats(game_key: str, table_size: int, results: list[SeatResult]) -> bool:
    """Count an unrated live game in its people's (unrated) statistics, once.

    Call it inside the transaction that marks the game finished. Returns False when
    ``game_key`` was already processed (by this or by :func:`apply_game_result`).
    """
    _require_atomic("record_game_stats")
    _validate(table_size, results)
    _require_places(results)
    if _claim(game_key, table_size, RatedGame.Status.UNRATED) is None:
        return False
    _add_stats(_people(results), table_size, rated=False, shared_win=_shared_win(results))
    return True


# --- the parts ---------------------------------------------------------------------------------


def _require_atomic(name: str) -> None:
    if not transaction.get_connection().in_atomic_block:
        raise RuntimeError(
            f"{name} must be called inside the transaction.atomic() block that ends the game, "
            "so the game's end and its rating are committed together."
        )


def _validate(table_size: int, results: Sequence[SeatResult]) -> None:
    if table_size not in TABLE_SIZES:
        raise ValueError(f"Ratings are kept for 3, 4, 5 or 6 players, not {table_size}.")
    if len(results) != table_size:
        raise ValueError(f"A {table_size}-player game needs {table_size} seat results, not {len(results)}.")
    user_ids = [r.user_id for r in results if r.is_person]
    if len(set(user_ids)) != len(user_ids):
        raise ValueError("A person can sit in only one seat of a game.")
    for r in results:
        if r.moons < 0 or r.deals < 0:
            raise ValueError("Moons and deals cannot be negative.")


def _require_places(results: Sequence[SeatResult]) -> None:
    if any(r.place is None for r in results):
        raise ValueError("A finished game's results need each seat's place.")


def _people(results: Iterable[SeatResult]) -> list[SeatResult]:
    return [r for r in results if r.is_person]


def _enough_people(people: Sequence[SeatResult]) -> bool:
    return len(people) >= 2


def _shared_win(results: Sequence[SeatResult]) -> bool:
    return sum(1 for r in results if r.won) > 1


def _leaving_order(people: Sequence[SeatResult]) -> list[int]:
    """Places when every person dropped: whoever left last is first; equal times tie, and so
    does everyone when a time is unknown.

    >>> at = [datetime(2026, 1, 1, 10, m) for m in (5, 30, 5)]
    >>> _leaving_order([SeatResult(i, 0, dropped=True, left_at=t) for i, t in enumerate(at)])
    [2, 1, 2]
    """
    if any(person.left_at is None for person in people):
        return [1] * len(people)
    return [1 + sum(other.left_at > person.left_at for other in people) for person in people]


def _rank_by_place(people: Sequence[SeatResult]) -> list[int]:
    """Ranks among people (computers left out) in the order of their places; equal places tie.

    >>> _rank_by_place([SeatResult(1, 40, place=2), SeatResult(2, 90, place=4), SeatResult(3, 40, place=2)])
    [1, 3, 1]
    """
    return [1 + sum(other.place < person.place for other in people) for person in people]


def _claim(game_key: str, table_size: int, status: str) -> RatedGame | None:
    """Create the game's unique row, or None if another call (maybe concurrent) already did."""
    try:
        with transaction.atomic():  # a savepoint: a duplicate key leaves the caller's transaction usable
            return RatedGame.objects.create(game_key=game_key, table_size=table_size, status=status)
    except IntegrityError:
        return None


def _locked_ratings(user_ids: Sequence[int], table_size: int) -> dict[int, Rating]:
    """The players' Rating rows (created at the defaults when missing), locked for update.

    Rows are created and locked in user id order, so two games sharing players cannot deadlock.
    """
    user_ids = sorted(user_ids)
    Rating.objects.bulk_create(
        [Rating(user_id=user_id, table_size=table_size) for user_id in user_ids], ignore_conflicts=True
    )
    rows = Rating.objects.select_for_update().filter(user_id__in=user_ids, table_size=table_size).order_by("user_id")
    return {row.user_id: row for row in rows}


def _rate(
    game: RatedGame,
    table_size: int,
    people: Sequence[SeatResult],
    ranks: Sequence[int],
    persist: Sequence[SeatResult],
) -> list[RatingChange]:
    """Rate ``people`` as ranked; save the new ratings of those in ``persist``, in seat order."""
    ratings = _locked_ratings([p.user_id for p in people], table_size)
    new_skills = skill.rate([ratings[p.user_id].skill for p in people], ranks)
    keep = {p.user_id for p in persist}
    changes = []
    for person, rank, new in zip(people, ranks, new_skills):
        if person.user_id not in keep:
            continue
        rating = ratings[person.user_id]
        before = (rating.mu, rating.sigma, rating.display)
        rating.mu, rating.sigma, rating.display = new.mu, new.sigma, new.display
        rating.games += 1
        rating.save(update_fields=["mu", "sigma", "display", "games", "updated_at"])
        changes.append(
            RatingChange.objects.create(
                game=game,
                user_id=person.user_id,
                table_size=table_size,
                rank=rank,
                score=person.final_score,
                dropped=person.dropped,
                mu_before=before[0],
                sigma_before=before[1],
                display_before=before[2],
                mu_after=new.mu,
                sigma_after=new.sigma,
                display_after=new.display,
                games_after=rating.games,
            )
        )
    return changes


def _add_stats(people: Sequence[SeatResult], table_size: int, *, rated: bool, shared_win: bool) -> None:
    if not people:
        return
    people = sorted(people, key=lambda p: p.user_id)  # one lock order for every game
    PlayerStats.objects.bulk_create(
        [PlayerStats(user_id=p.user_id, table_size=table_size, rated=rated) for p in people], ignore_conflicts=True
    )
    for p in people:
        finished = not p.dropped
        won = finished and p.won
        PlayerStats.objects.filter(user_id=p.user_id, table_size=table_size, rated=rated).update(
            games=F("games") + 1,
            wins=F("wins") + int(won),
            shared_wins=F("shared_wins") + int(won and shared_win),
            left_early=F("left_early") + int(p.dropped),
            points=F("points") + (p.final_score if finished else 0),
            deals=F("deals") + (p.deals if finished else 0),
            moons=F("moons") + p.moons,
        )
