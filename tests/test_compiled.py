"""The compiled kernel and policy (``hearts_site.compiled``) are their source, only faster:
played against the source on the same deals and positions, they return the same values.
CI (``REQUIRE_COMPILED=1``) requires them compiled; elsewhere these tests skip when not."""
import json
import os
import random

import pytest
from django.core.exceptions import ImproperlyConfigured
from hypothesis import given, settings
from hypothesis import strategies as st

from games.apps import GamesConfig
from games.bots import policy
from games.engine import Rules, kernel
from hearts_site import compiled

from .engine.helpers import DEAL_FIELDS

RULES = [
    Rules(), Rules(players=3), Rules(players=5), Rules(players=6), Rules(players=3, odd_cards="kitty"),
    Rules(black_maria=True, jack_of_diamonds=True), Rules(moon="choose", hearts_lead="queen_breaks"),
    Rules(passing="none", lead="left_of_dealer", first_trick_points=True, hearts_lead="any"),
]

is_compiled = pytest.mark.skipif(
    not compiled.compiled() and not os.environ.get("REQUIRE_COMPILED"),
    reason="the kernel and policy run as source here (python -m hearts_site.compiled compiles them)",
)


def test_compiled_where_required():
    if not os.environ.get("REQUIRE_COMPILED"):
        pytest.skip("REQUIRE_COMPILED is not set")
    assert compiled.compiled() == list(compiled.MODULES)
    assert compiled.stale() == []
    for module in (kernel, policy):
        assert not module.__file__.endswith(".py"), f"{module.__name__} runs from its source"


@is_compiled
def test_a_changed_source_is_stale_and_the_site_refuses_it(tmp_path, monkeypatch):
    record = tmp_path / "compiled.json"
    record.write_text(json.dumps({source: compiled.digest(source) for source in compiled.MODULES}))
    monkeypatch.setattr(compiled, "RECORD", record)
    assert compiled.stale() == []
    GamesConfig.ready(None)  # current: starts
    record.write_text(json.dumps({"games/engine/kernel.py": "0" * 64, "games/bots/policy.py": compiled.digest("games/bots/policy.py")}))
    assert compiled.stale() == ["games/engine/kernel.py"]
    with pytest.raises(ImproperlyConfigured, match="games/engine/kernel.py changed since it was compiled"):
        GamesConfig.ready(None)


@pytest.fixture(scope="module")
def source_kernel():
    return compiled.load_source("games/engine/kernel.py")


@pytest.fixture(scope="module")
def source_policy():
    return compiled.load_source("games/bots/policy.py")


@is_compiled
def test_random_hands_score_as_in_the_source(source_kernel):
    for rules in RULES:
        fast, plain = kernel.config(rules), source_kernel.config(rules)
        for seed in range(300):
            assert kernel.random_deal_points(fast, random.Random(seed)) == \
                source_kernel.random_deal_points(plain, random.Random(seed)), (rules, seed)


@is_compiled
def test_deals_played_card_by_card_end_as_in_the_source(source_kernel):
    for rules in RULES:
        fast_cfg, plain_cfg = kernel.config(rules), source_kernel.config(rules)
        for seed in range(60):
            hands = kernel.deal(fast_cfg, random.Random(seed))
            assert hands == source_kernel.deal(plain_cfg, random.Random(seed))
            kitty = fast_cfg.deck_mask & ~sum(hands)
            fast, plain = kernel.Deal(fast_cfg, hands, kitty), source_kernel.Deal(plain_cfg, hands, kitty)
            fast.begin(leader=seed % rules.players)
            plain.begin(leader=seed % rules.players)
            kernel.random_playout(fast, random.Random(seed))
            source_kernel.plain_random_playout(plain, random.Random(seed))
            for field in DEAL_FIELDS[1:]:
                assert getattr(fast, field) == getattr(plain, field), (rules, seed, field)
            for choice in (None, kernel.MOON_SUBTRACT, kernel.MOON_ADD):
                assert fast.score(choice) == plain.score(choice)


@is_compiled
@settings(max_examples=300, deadline=None)
@given(rules=st.sampled_from(RULES), hand=st.integers(0, 2**52 - 1), led=st.integers(-1, 3),
       first_trick=st.booleans(), broken=st.booleans(), first_lead=st.integers(-1, 51), card=st.integers(0, 51))
def test_legal_cards_and_refusals_are_the_source_s(source_kernel, rules, hand, led, first_trick, broken,
                                                    first_lead, card):
    fast, plain = kernel.config(rules), source_kernel.config(rules)
    assert kernel.legal_mask(fast, hand, led, first_trick, broken, first_lead) == \
        source_kernel.legal_mask(plain, hand, led, first_trick, broken, first_lead)
    assert kernel.why_illegal_play(fast, hand, card, led, first_trick, broken, first_lead) == \
        source_kernel.why_illegal_play(plain, hand, card, led, first_trick, broken, first_lead)


@is_compiled
def test_the_policy_chooses_as_the_source_does(source_policy):
    """Every card and pass of Medium's policy, from every position of random deals."""
    positions = 0
    for rules in RULES:
        cfg = kernel.config(rules)
        for seed in range(25):
            rng = random.Random(seed)
            hands = kernel.deal(cfg, rng)
            for hand in hands:
                assert policy.pass_cards(cfg, hand) == source_policy.pass_cards(cfg, hand)
                assert policy.pass_ranking(cfg, hand, 3) == source_policy.pass_ranking(cfg, hand, 3)
            d = kernel.Deal(cfg, hands, cfg.deck_mask & ~sum(hands))
            d.begin(leader=seed % rules.players)
            while d.turn >= 0:
                why_fast: list = []
                why_plain: list = []
                card = policy.play(d, why_fast)
                assert card == source_policy.play(d, why_plain) and why_fast == why_plain, (rules, seed)
                positions += 1
                d.play(card if rng.random() < 0.7 else kernel.pick_random(d.legal, rng.random))
    assert positions > 5000
