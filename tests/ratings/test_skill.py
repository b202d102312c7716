"""openskill's Plackett-Luce and ties: what the pinned package does, and our correction.

Finding (openskill 6.2.0): the package is seat-order independent for ties (it averages the tied
players' mu changes), but its tie formula is not "halfway between a win and a loss": tied
winners gain less than a clear runner-up, and the player ranked just below a tie gains as much
as the tied winners. ``ratings.skill.rate`` therefore rates every strict order of each tied
group and averages (for two players: A-beats-B and B-beats-A, averaged).
"""
import itertools
import math

import pytest

from ratings import skill
from ratings.skill import Skill, rate, rate_package

TOL = 1e-9

OTHERS = [Skill(27.0, 6.0), Skill(21.5, 7.5), Skill(30.0, 3.0), Skill(18.0, 8.0)]


def test_pinned_package_ties_are_not_halfway():
    """Documents the bug we correct; if this fails, openskill changed its tie handling."""
    equal = [Skill()] * 4
    win, second, third, last = (s.mu - skill.INITIAL_MU for s in rate_package(equal, [0, 1, 2, 3]))
    tied = [s.mu - skill.INITIAL_MU for s in rate_package(equal, [0, 0, 1, 2])]
    halfway = (win + second) / 2
    assert tied[0] == tied[1]  # the package does treat the tied pair alike...
    assert tied[0] < second < halfway  # ...but a shared win earns less than a clear second place,
    assert math.isclose(tied[2], tied[0])  # and third place gains as much as the shared winners.
    assert abs(tied[0] - halfway) > 1.0


def test_without_ties_we_use_the_package_update_unchanged():
    skills = [Skill(25, 8), Skill(28, 5), Skill(20, 6), Skill(26, 4)]
    ranks = [2, 0, 3, 1]
    assert rate(skills, ranks) == rate_package(skills, ranks)


@pytest.mark.parametrize("table_size", [3, 4, 5, 6])
def test_tied_winners_are_treated_exactly_alike_whatever_the_seats(table_size):
    a = b = Skill(24.0, 7.0)
    players = [a, b, *OTHERS[: table_size - 2]]
    ranks = [0, 0, *range(2, table_size)]
    reference = None
    for order in itertools.permutations(range(table_size)):
        seated = [players[i] for i in order]
        seated_ranks = [ranks[i] for i in order]
        new = rate(seated, seated_ranks)
        by_player = [None] * table_size
        for seat, i in enumerate(order):
            by_player[i] = new[seat]
        assert by_player[0] == by_player[1]  # bit-for-bit the same update for A and B
        if reference is None:
            reference = by_player
        assert by_player == reference  # and the same whichever seats anyone sat in


@pytest.mark.parametrize("table_size", [2, 3, 4, 5, 6])
@pytest.mark.parametrize(
    "a, b",
    [
        (Skill(), Skill()),  # both new
        (Skill(24.0, 7.0), Skill(24.0, 7.0)),  # equal
        (Skill(31.0, 3.5), Skill(22.0, 7.8)),  # a strong settled player and a weaker unsure one
        (Skill(19.0, 2.5), Skill(26.0, 4.0)),
    ],
)
def test_a_shared_win_counts_halfway_between_a_win_and_a_loss(table_size, a, b):
    others = OTHERS[: table_size - 2]
    rest = list(range(2, table_size))
    a_wins = rate([a, b, *others], [0, 1, *rest])
    b_wins = rate([a, b, *others], [1, 0, *rest])
    shared = rate([a, b, *others], [0, 0, *rest])
    for player in (0, 1):
        halfway_mu = (a_wins[player].mu + b_wins[player].mu) / 2
        halfway_sigma = (a_wins[player].sigma + b_wins[player].sigma) / 2
        assert shared[player].mu == pytest.approx(halfway_mu, abs=TOL)
        assert shared[player].sigma == pytest.approx(halfway_sigma, abs=TOL)
    if a == b:
        assert shared[0] == shared[1]
    # A shared win still beats everyone below it.
    solo_second = rate([a, b, *others], [0, 1, *rest])[1].mu
    assert shared[1].mu > solo_second


def test_ties_below_the_top_are_halfway_too():
    players = [Skill(26, 5), Skill(23, 6), Skill(25, 7), Skill(27, 4)]
    c_above = rate(players, [0, 1, 2, 3])
    d_above = rate(players, [0, 1, 3, 2])
    tied = rate(players, [0, 1, 2, 2])
    for i in (2, 3):
        assert tied[i].mu == pytest.approx((c_above[i].mu + d_above[i].mu) / 2, abs=TOL)


def test_three_way_tie_is_the_average_of_all_six_orders():
    players = [Skill(25, 8), Skill(28, 4), Skill(22, 6), Skill(26, 5)]
    orders = list(itertools.permutations([0, 1, 2]))
    strict = []
    for order in orders:
        ranks = [0] * 4
        for place, i in enumerate(order):
            ranks[i] = place
        ranks[3] = 3
        strict.append(rate(players, ranks))
    tied = rate(players, [0, 0, 0, 3])
    for i in range(4):
        assert tied[i].mu == pytest.approx(sum(s[i].mu for s in strict) / 6, abs=TOL)


def test_winner_gains_and_last_loses():
    new = rate([Skill()] * 4, [0, 1, 2, 3])
    assert new[0].mu > skill.INITIAL_MU > new[3].mu
    assert all(s.sigma < skill.INITIAL_SIGMA for s in new)


def test_display_rating_formula():
    assert skill.display_rating(skill.INITIAL_MU) == 1500
    assert Skill(30.0, 2.0).display == Skill(30.0, 8.0).display == 1500 + 24 * 5


def test_the_shown_rating_moves_with_the_result_first_up_last_down_about_zero_in_sum():
    """Reported: with the conservative ``mu - 3 sigma`` shown, the four ratings of every game
    rose in total (+50 to +58) and third of four gained."""
    players = [Skill()] * 4
    for _game in range(30):
        new = rate(players, [0, 1, 2, 3])
        changes = [after.display - before.display for before, after in zip(players, new)]
        assert changes[0] > 0 > changes[3] and changes[2] <= 0, changes
        assert abs(sum(changes)) <= 0.05 * sum(map(abs, changes)), "about zero (exactly, for equal uncertainties)"
        players = [Skill(s.mu, s.sigma) for s in rate(new, [3, 2, 1, 0])]  # a game the other way round


def test_rate_needs_two_players_and_one_rank_each():
    with pytest.raises(ValueError):
        rate([Skill()], [0])
    with pytest.raises(ValueError):
        rate([Skill(), Skill()], [0])
