"""Accessibility in chromium: axe-core (bundled by axe-playwright-python) finds no serious or
critical problem on the pages a player uses, the dimmed cards stay readable, and a screen
reader is told each play by name."""
import re

import pytest

from .conftest import DESKTOP
from tests.solo.test_offline import finished_game

from .test_solo_browser import PHONE_390, new_game, pass_three, play_one, shot, version, wait_for_change, wait_for_turn

pytestmark = pytest.mark.browser

SERIOUS = {"serious", "critical"}


def serious_problems(page) -> list[str]:
    from axe_playwright_python.sync_playwright import Axe

    results = Axe().run(page)
    return [
        f"{violation['id']} ({violation['impact']}): {violation['help']} — "
        + "; ".join(node["target"][0] for node in violation["nodes"][:3])
        for violation in results.response["violations"]
        if violation["impact"] in SERIOUS
    ]


def relative_luminance(rgb) -> float:
    def channel(value):
        value /= 255
        return value / 12.92 if value <= 0.03928 else ((value + 0.055) / 1.055) ** 2.4

    red, green, blue = rgb
    return 0.2126 * channel(red) + 0.7152 * channel(green) + 0.0722 * channel(blue)


def contrast(one, two) -> float:
    """WCAG's contrast ratio of two colours.

    >>> round(contrast((0, 0, 0), (255, 255, 255)), 1)
    21.0
    """
    light, dark = sorted((relative_luminance(one), relative_luminance(two)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def rgb(css: str) -> tuple[float, ...]:
    return tuple(float(part) for part in re.findall(r"[\d.]+", css)[:3])


DIMMED_COLOURS = """() => [...document.querySelectorAll('#t-me .playing-card.dimmed')].map(card => {
  const face = card.querySelector('.pc-face'), corner = getComputedStyle(face, '::before');
  return {code: card.dataset.card, ink: corner.color, opacity: corner.opacity,
          paper: getComputedStyle(face).backgroundColor};
})"""


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE_390], ids=["desktop", "phone"])
def test_the_pages_a_player_uses_have_no_serious_accessibility_problem(site, open_page, viewport, screens):
    page = open_page("ida", viewport)
    found = {}
    page.goto(site.url + "/")
    found["home"] = serious_problems(page)
    page.goto(site.url + "/play/new/")
    found["new game"] = serious_problems(page)
    new_game(page, site)
    wait_for_turn(page)
    found["table, passing"] = serious_problems(page)
    pass_three(page)
    for _ in range(20):
        wait_for_turn(page)
        if page.locator("#t-centre .trick:not(.last) .trick-card").count() and page.locator("#t-me .dimmed").count():
            break
        play_one(page)
    found["table, mid-trick"] = serious_problems(page)

    colours = page.evaluate(DIMMED_COLOURS)
    assert colours, "a trick is under way with cards that cannot follow"
    for card in colours:
        paper, ink, opacity = rgb(card["paper"]), rgb(card["ink"]), float(card["opacity"])
        shown = tuple(opacity * i + (1 - opacity) * p for i, p in zip(ink, paper))
        ratio = contrast(shown, paper)
        assert ratio >= 3, f"dimmed {card['code']}: {ratio:.2f}:1"

    # to the end of the game (to 26), with the deal summary on the way
    name = "phone" if viewport == PHONE_390 else "desktop"
    for _ in range(200):
        wait_for_turn(page)
        page.wait_for_function("() => !document.querySelector('#t-overlay .after-trick')")  # the last trick has gone
        summary = page.locator("#t-overlay .deal-summary:not(.dismissed)")
        if "deal summary" not in found and summary.count() and summary.is_visible():
            found["deal summary"] = serious_problems(page)
            shot(page, screens, f"a11y-{name}-deal-summary")
            page.keyboard.press("Escape")
        if page.locator("#table.is-over").count():
            break
        if page.locator(".pass-form").count():
            pass_three(page)
        else:
            play_one(page)
    page.wait_for_selector("#t-overlay .game-over:not(.after-trick)")
    if int(page.get_attribute("#table", "data-deal")) > 1:
        assert "deal summary" in found, "a deal was scored before the last"
    found["game over"] = serious_problems(page)
    shot(page, screens, f"a11y-{name}-game-over")
    replay = page.get_attribute(".game-over a:has-text('Replay')", "href")
    page.goto(site.url + replay)
    found["replay"] = serious_problems(page)

    page.goto(site.url + "/my-games/")
    found["my games"] = serious_problems(page)
    page.goto(site.url + "/my-stats/")
    found["statistics"] = serious_problems(page)
    page.goto(site.url + "/computers/")
    found["how strong are the computers"] = serious_problems(page)
    page.goto(site.url + "/learn/")
    found["learn"] = serious_problems(page)
    page.click("main form button")
    page.wait_for_selector("#table[data-synced]")
    found["lesson table"] = serious_problems(page)
    page.goto(site.url + "/play-offline/")
    # A seed of its own: the browser tests share one site, where a game's seed kept by one
    # account is refused to another (test_offline_browser keeps the default seed's game).
    page.evaluate("game => localStorage.setItem('hearts.offline.games', JSON.stringify({[game.id]: game}))",
                  finished_game(game_id="a11y", seed=5))
    page.reload()
    page.wait_for_selector("#offline-games li", timeout=60000)
    found["offline, saved games"] = serious_problems(page)
    shot(page, screens, f"a11y-{name}-offline")
    assert found == {name: [] for name in found}, found
    # and the check does find a problem when there is one: an image with no text alternative
    page.evaluate("() => document.querySelector('main').insertAdjacentHTML('beforeend', '<img src=\"/x.png\">')")
    assert any(problem.startswith("image-alt") for problem in serious_problems(page))


def test_a_screen_reader_hears_each_play_by_name(site, open_page):
    page = open_page("joy")
    new_game(page, site)
    wait_for_turn(page)
    pass_three(page)
    wait_for_turn(page)
    page.wait_for_function("() => document.getElementById('t-live').textContent.trim() === "
                           "document.getElementById('t-announce').textContent.trim()")
    announced = page.text_content("#t-live").strip()
    assert page.get_attribute("#t-live", "aria-live") == "polite"
    # the last action is said with its player's name and the card's, then what to do
    names = ("Ben", "Cleo", "Dev", "You")
    assert any(re.search(rf"\b{name} (plays|play|passed|pass) ", announced) for name in names), announced
    assert announced.endswith(page.inner_text("#t-status"))


HEARD = """() => {
  window.heard = [];
  const region = document.getElementById('t-live');
  window.liveRegion = region;
  new MutationObserver(() => window.heard.push(region.textContent.trim()))
    .observe(region, {childList: true, characterData: true, subtree: true});
}"""
ACTIVE_CARD = "() => (document.activeElement.closest('#t-me .hand .playing-card') || {}).dataset?.card || null"
TAB_STOPS = "() => [...document.querySelectorAll('#t-me .hand input, #t-me .hand button')].filter(c => c.tabIndex === 0).length"


def test_the_hand_is_one_tab_stop_and_the_table_speaks_from_one_live_region(site, open_page):
    page = open_page("kay")
    new_game(page, site)
    wait_for_turn(page)
    page.evaluate(HEARD)
    page.wait_for_function("() => !!document.activeElement.closest('#t-me label.playing-card')")
    assert page.evaluate(TAB_STOPS) == 1, "the hand is one Tab stop"
    cards = page.locator("#t-me .hand .playing-card").evaluate_all("cards => cards.map(c => c.dataset.card)")
    page.keyboard.press("End")
    assert page.evaluate(ACTIVE_CARD) == cards[-1]
    page.keyboard.press("Home")
    assert page.evaluate(ACTIVE_CARD) == cards[0]
    page.keyboard.press("ArrowRight")
    assert page.evaluate(ACTIVE_CARD) == cards[1]
    page.keyboard.press("Tab")
    assert page.evaluate(ACTIVE_CARD) is None, "one Tab leaves the hand"
    page.keyboard.press("Shift+Tab")
    assert page.evaluate(ACTIVE_CARD) == cards[1], "and Shift+Tab comes back to the same card"
    for key in ("Space", "ArrowRight", "Space", "ArrowRight", "Space", "Tab"):
        page.keyboard.press(key)
    assert page.evaluate("() => document.activeElement.classList.contains('pass-button')")
    assert any("Ready to pass" in words for words in page.evaluate("window.heard")), "ticks are told"
    old = version(page)
    page.keyboard.press("Enter")
    wait_for_change(page, old)
    for _ in range(3):  # a few cards played by the keyboard alone
        wait_for_turn(page)
        page.wait_for_function("() => !!document.activeElement.closest('#t-me .playing-card.legal')")
        assert page.evaluate(TAB_STOPS) == 1
        old = version(page)
        page.keyboard.press("Enter")
        wait_for_change(page, old)
    wait_for_turn(page)
    assert page.evaluate("() => window.liveRegion === document.getElementById('t-live') && window.liveRegion.isConnected"), \
        "the live region is never replaced"
    heard = page.evaluate("window.heard")
    assert len(heard) >= 8 and any(re.search(r"\b(Ben|Cleo|Dev) plays ", words) for words in heard), heard
    others = page.locator("#table [aria-live], #table [role=status], #table [role=alert]").count()
    assert others == 0, "no other live region on the table"
    # the card tracker, kept up to date by the frames: every card played this deal
    held = page.locator("#t-me .hand .playing-card").count() + sum(
        int(count.split()[0]) for count in page.locator(".opponent .count").all_inner_texts())
    page.click("#t-tracker summary")
    tracked = [text for text in page.locator("#t-tracker [id^=t-tracker-]").all_inner_texts() if text != "–"]
    assert sum(len(text.split()) for text in tracked) == 52 - held, tracked
