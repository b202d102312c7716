"""A visitor with no account plays at once in chromium (desktop and a 390×844 phone): one
click on the home page, a move, a reload that resumes, then sign-up keeps the game."""
import secrets

import pytest

from .test_solo_browser import pass_three, play_one, shot, version, wait_for_turn

pytestmark = pytest.mark.browser

PHONE_390 = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 860}


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE_390], ids=["desktop", "phone"])
def test_a_visitor_plays_at_once_resumes_and_keeps_the_game_by_signing_up(site, open_page, screens, viewport):
    page = open_page(None, viewport)
    page.goto(site.url + "/")
    assert "no sign-up needed" in page.inner_text("main")
    page.click("#play-now")
    page.wait_for_selector("#table")
    table_url = page.url
    assert "/table/" in table_url
    name = "desktop" if viewport is DESKTOP else "phone"
    shot(page, screens, f"guest-{name}-first-table")
    wait_for_turn(page)
    if page.locator(".pass-form").count():
        pass_three(page)
    else:
        play_one(page)
    moved_to = version(page)
    page.reload()
    page.wait_for_selector("#table")
    assert page.url == table_url and version(page) >= moved_to, "the game resumes in the same browser"
    sign_up = page.locator(".site-header a.button", has_text="Sign up free")
    assert sign_up.is_visible() and sign_up.bounding_box()["x"] + sign_up.bounding_box()["width"] <= viewport["width"]
    if viewport is PHONE_390:  # nothing wider than the phone
        assert page.evaluate("document.documentElement.scrollWidth") <= 390 + 1

    username = f"guest{secrets.token_hex(3)}"
    page.goto(site.url + "/accounts/signup/")
    page.fill("#id_username", username)
    page.fill("#id_email", f"{username}@example.com")
    page.fill("#id_password1", "Tr1cky-Queen-of-Spades")
    page.fill("#id_password2", "Tr1cky-Queen-of-Spades")
    page.click("form button[type=submit]")
    page.wait_for_load_state()
    assert "Your games are kept in it." in page.inner_text("body")
    page.goto(site.url + "/my-games/")
    assert page.locator(f"a[href='{table_url.replace(site.url, '')}']").count() >= 1
    shot(page, screens, f"guest-{name}-my-games-after-sign-up")


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE_390], ids=["desktop", "phone"])
def test_stopping_a_game_counts_it_in_the_statistics_and_deleting_removes_it(site, open_page, screens, viewport):
    page = open_page(None, viewport)
    page.on("dialog", lambda dialog: dialog.accept())  # "Stop this game?", "Delete this game?"
    for _ in range(2):
        page.goto(site.url + "/")
        page.click("#play-now")
        page.wait_for_selector("#table")
    page.goto(site.url + "/my-games/")
    rows = page.locator(".games-list tbody tr")
    assert rows.count() == 2
    rows.first.get_by_role("button", name="Stop").click()
    page.wait_for_load_state()
    assert "it counts as not won" in page.inner_text(".messages")
    page.locator(".games-list tbody tr").first.get_by_role("button", name="Delete").click()
    page.wait_for_load_state()
    assert "The game is deleted." in page.inner_text(".messages")
    assert "Stopped" in page.inner_text("main") and "No game in progress." in page.inner_text("main")
    page.click("text=My statistics")
    page.wait_for_selector("#stats tbody tr")  # the statistics page, not the one it was clicked on
    stats = page.locator("#stats")
    first_row = [cell.inner_text() for cell in stats.locator("tbody tr").first.locator("th, td").all()]
    assert first_row[:4] == ["All games", "1", "0", "0%"], first_row
    if viewport is PHONE_390:
        assert page.evaluate("document.documentElement.scrollWidth") <= 390 + 1
    shot(page, screens, f"statistics-{'desktop' if viewport is DESKTOP else 'phone'}")


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE_390], ids=["desktop", "phone"])
def test_the_computers_figures_fit_the_screen(site, open_page, screens, viewport):
    """Every figure of "How strong are the computers" is in view without scrolling sideways:
    on a phone each row of a table is a card, each figure beside its column's name."""
    page = open_page(None, viewport)
    page.goto(site.url + "/computers/")
    assert page.locator(".table-scroll table").count() >= 2
    cut = page.evaluate("""() => [...document.querySelectorAll('.table-scroll')]
        .filter(box => box.scrollWidth > box.clientWidth + 1).map(box => box.getAttribute('aria-label'))""")
    assert cut == [], f"tables wider than their box: {cut}"
    assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"] + 1
    first_figure = page.locator("#match-1 tbody td").first
    label = first_figure.evaluate("cell => getComputedStyle(cell, '::before').content")
    if viewport is PHONE_390:
        assert label == '"Seats"' and page.locator("#match-1 thead").bounding_box()["height"] <= 1
    else:
        assert label in ("none", "normal") and page.locator("#match-1 thead").is_visible()
    shot(page, screens, f"computers-{'desktop' if viewport is DESKTOP else 'phone'}")
