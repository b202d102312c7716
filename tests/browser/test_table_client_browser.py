"""The table client in chromium: what the player was doing survives the updates, cards move,
the last trick can be looked at, presence shows without a move, your turn is announced."""
import re
import subprocess
import sys

import pytest

from .conftest import ROOT
from .test_solo_browser import new_game, pass_three, play_one, shot, tap, version, wait_for_change, wait_for_turn

pytestmark = pytest.mark.browser

LIVE_TABLE = """
from accounts.models import User
from games import services
from games.engine import Rules
from live import rooms
ann, bob = User.objects.get(username={ann!r}), User.objects.get(username={bob!r})
table = services.create_table(ann, Rules(), kind="friends", seat_bots=[None, None, "easy", "easy"], seed=11)
rooms.take_seat(table.pk, bob, 1)
services.start_table(table.pk)
print("CODE=" + table.code)
"""

TIMED_LIVE_TABLE = LIVE_TABLE.replace('Rules()', 'Rules(passing="none")').replace(
    'seed=11)', 'seed=11, turn_timer_seconds=60)')

# Seat 1 (Bob) leads the first trick, so his pass, made last, brings his turn to lead in the
# same update: a turn that follows a turn, with no one else's turn shown between them.
LEAD_AFTER_PASS_TABLE = LIVE_TABLE.replace('Rules()', 'Rules(lead="left_of_dealer")')

# The page's notifications, recorded; and a tab the test can hide (document.hidden).
NOTIFICATIONS = """
window.shown = [];
window.Notification = function (title, options) { window.shown.push([title, options.body]); this.close = function () {}; };
window.Notification.permission = "granted";
window.Notification.requestPermission = function () { return Promise.resolve("granted"); };
Object.defineProperty(document, "hidden", {get: () => !!window.pretendHidden, configurable: true});
"""

COUNT_ANIMATIONS = """
window.cardMotions = 0;
const animate = Element.prototype.animate;
Element.prototype.animate = function () {
  if (this.closest && this.closest('#t-centre')) window.cardMotions += 1;
  return animate.apply(this, arguments);
};
"""


def live_table(site, ann, bob, script=LIVE_TABLE) -> str:
    site.session_for(ann)
    site.session_for(bob)
    result = subprocess.run([sys.executable, "manage.py", "shell", "-c", script.format(ann=ann, bob=bob)],
                            cwd=ROOT, env=site.env, capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    return next(line[5:] for line in result.stdout.splitlines() if line.startswith("CODE="))


def presence_of(page, seat: int) -> str:
    return page.inner_text(f"#t-seat-{seat} .presence")


def test_ticked_cards_survive_another_seats_pass_and_presence_shows_without_a_move(site, open_page, screens):
    code = live_table(site, "lia", "max")
    lia = open_page("lia")
    lia.goto(f"{site.url}/live/room/{code}/")
    lia.wait_for_selector("#table[data-synced] #t-me .pass-form")
    assert presence_of(lia, 1) == "offline", "Max has not opened the table"

    cards = lia.locator("#t-me label.playing-card")
    tap(lia, cards.nth(0))
    tap(lia, cards.nth(1))
    ticked = lia.eval_on_selector_all("#t-me input[name=cards]:checked", "inputs => inputs.map(i => i.value)")
    assert len(ticked) == 2

    max_page = open_page("max")
    max_page.goto(f"{site.url}/live/room/{code}/")
    max_page.wait_for_selector("#table[data-synced] #t-me .pass-form")
    lia.wait_for_function("() => document.querySelector('#t-seat-1 .presence').textContent === 'online'",
                          timeout=2000)

    pass_three(max_page)
    lia.wait_for_selector("#t-seat-1 .plate-flag:has-text('passed')")
    shot(lia, screens, "live-ticked-cards-kept")
    still = lia.eval_on_selector_all("#t-me input[name=cards]:checked", "inputs => inputs.map(i => i.value)")
    assert still == ticked, "Lia's half-made choice is kept when Max passes"
    assert lia.inner_text(".pass-count") == "2 of 3 chosen"

    max_page.close()
    lia.wait_for_function("() => document.querySelector('#t-seat-1 .presence').textContent === 'offline'",
                          timeout=2000)


def test_keyboard_play_keeps_focus_in_the_hand_cards_move_and_the_last_trick_can_be_seen(site, open_page, screens):
    page = open_page("kim")
    page.context.add_init_script(COUNT_ANIMATIONS)
    new_game(page, site)
    wait_for_turn(page)
    # Pass by keyboard alone: focus starts in the hand.
    pass_by_keyboard(page)

    # Play by keyboard alone until a trick has been taken.
    for _ in range(30):
        wait_for_turn(page)
        assert page.title().startswith("● Your turn"), "the tab says it is your turn"
        # focus comes to the hand when the turn does (waited for: the script moves it after the swap)
        page.wait_for_function("() => !!document.activeElement.closest('#t-me .playing-card')", timeout=5000)
        page.evaluate("() => document.querySelector('#t-me .playing-card.legal').focus()")
        old = version(page)
        page.keyboard.press("Enter")
        wait_for_change(page, old)
        page.wait_for_function("() => document.activeElement && !!document.activeElement.closest('#t-me')")
        if page.locator("#t-previous li").count():
            break
    else:
        raise AssertionError("no trick was taken")
    assert not page.title().startswith("● Your turn") or "my-turn" in page.get_attribute("#table", "class")
    assert page.evaluate("window.cardMotions") > 0, "played cards slide to the centre"

    toggle = page.locator("[data-toggle=t-previous]")
    toggle.click()
    assert toggle.get_attribute("aria-expanded") == "true"
    panel = page.locator("#t-previous")
    assert panel.is_visible()
    assert panel.locator("li").count() == 4 and "the trick" in panel.inner_text()
    shot(page, screens, "table-last-trick-open")
    # the panel stays open across the next updates
    wait_for_turn(page)
    old = version(page)
    page.evaluate("() => document.querySelector('#t-me .playing-card.legal').focus()")
    page.keyboard.press("Enter")
    wait_for_change(page, old)
    assert page.locator("#t-previous").is_visible()


def pass_by_keyboard(page):
    """Space ticks, arrows move, Tab reaches the button, Enter passes."""
    page.wait_for_function("() => !!document.activeElement.closest('#t-me label.playing-card')")
    for step in ("Space", "ArrowRight", "Space", "ArrowRight", "Space"):
        page.keyboard.press(step)
    assert page.inner_text(".pass-count") == "Ready to pass"
    for _ in range(15):
        if page.evaluate("() => document.activeElement.classList.contains('pass-button')"):
            break
        page.keyboard.press("Tab")
    old = version(page)
    page.keyboard.press("Enter")
    wait_for_change(page, old)


def test_a_lead_that_comes_with_your_own_pass_brings_focus_to_the_hand(site, open_page):
    code = live_table(site, "pia", "quin", LEAD_AFTER_PASS_TABLE)
    pia = open_page("pia")
    pia.goto(f"{site.url}/live/room/{code}/")
    pia.wait_for_selector("#table[data-synced] #t-me .pass-form")
    pass_three(pia)
    quin = open_page("quin")
    quin.goto(f"{site.url}/live/room/{code}/")
    quin.wait_for_selector("#table[data-synced] #t-me .pass-form")
    for seat in (0, 2, 3):
        quin.wait_for_selector(f"#t-seat-{seat} .plate-flag:has-text('passed')")

    pass_by_keyboard(quin)
    wait_for_turn(quin)
    assert quin.get_attribute("#table", "data-phase") == "play", "Quin leads the first trick"
    assert quin.title().startswith("● Your turn")
    quin.wait_for_function("() => !!document.activeElement.closest('#t-me .playing-card.legal')", timeout=5000)
    old = version(quin)
    quin.keyboard.press("Enter")
    wait_for_change(quin, old)
    assert quin.locator("#t-centre .trick-card").count() >= 1, "the lead was played by keyboard"


def test_your_turn_in_a_hidden_tab_is_told_by_a_notification_and_the_title_counts_down(site, open_page, screens):
    code = live_table(site, "noa", "oli", TIMED_LIVE_TABLE)
    noa = open_page("noa")
    noa.context.add_init_script(NOTIFICATIONS)
    noa.goto(f"{site.url}/live/room/{code}/")
    noa.wait_for_selector("#table[data-synced] #t-me")
    noa.check("input[data-setting=notify]")
    noa.evaluate("window.pretendHidden = true")
    oli = open_page("oli")
    oli.goto(f"{site.url}/live/room/{code}/")
    oli.wait_for_selector("#table[data-synced] #t-me")
    for _ in range(40):
        if noa.evaluate("window.shown.length"):
            break
        for page in (noa, oli):
            if "my-turn" in page.get_attribute("#table", "class"):
                if page is noa:
                    title = noa.title()
                    assert re.match(r"^● Your turn · \d+s · ", title), title
                old = version(page)
                tap(page, page.locator("#t-me .playing-card.legal").first)
                wait_for_change(page, old)
        noa.wait_for_timeout(300)
    else:
        raise AssertionError("Noa's turn never came while her tab was hidden")
    noa.wait_for_selector("#table.my-turn")
    (heading, body), = noa.evaluate("window.shown")
    assert heading == "Your turn at Hearts" and body == noa.inner_text("#t-status")
    assert re.match(r"^● Your turn · \d+s · ", noa.title())
    seconds = int(re.match(r"^● Your turn · (\d+)s", noa.title())[1])
    assert 0 < seconds <= 60
    assert not re.match(r"^● Your turn", oli.title()), "Oli's tab does not say it is his turn"


def test_leaving_a_live_game_from_the_table_the_socket_drew(site, open_page):
    """The table comes over the socket, drawn without a request: its forms that post to a page
    still carry the page's CSRF token."""
    code = live_table(site, "uma", "vic")
    uma = open_page("uma")
    uma.on("dialog", lambda dialog: dialog.accept())  # "Leave this game? ..."
    uma.goto(f"{site.url}/live/room/{code}/")
    uma.wait_for_selector("#table[data-synced]")
    assert uma.locator(".leave-game input[name=csrfmiddlewaretoken]").count() == 0, "drawn for the socket"
    uma.click(".leave-game button")
    uma.wait_for_url(f"{site.url}/live/")
    assert "You left the game: a computer plays your seat to the end." in uma.inner_text(".messages")


def test_two_people_chat_at_the_table_and_one_mutes_the_other(site, open_page, screens):
    code = live_table(site, "wes", "xia")
    wes, xia = open_page("wes"), open_page("xia")
    for page in (wes, xia):
        page.goto(f"{site.url}/live/room/{code}/")
        page.wait_for_selector("#table[data-synced]")
    wes.fill(".chat-form input[name=text]", "<i>hello</i> Xia")
    wes.press(".chat-form input[name=text]", "Enter")
    line = xia.locator("#chat-log .chat-line", has_text="hello")
    line.wait_for()
    assert line.locator(".chat-text").inner_text() == "<i>hello</i> Xia", "shown as written, not as markup"
    # the box is emptied once sent: when the line comes back in Wes's own log, which may be
    # after Xia's page shows it
    wes.wait_for_function("() => document.querySelector('.chat-form input[name=text]').value === ''", timeout=15000)
    xia.click(".quick-phrases button:has-text('Good luck!')")
    wes.locator("#chat-log .chat-line", has_text="Good luck!").wait_for()
    assert not wes.locator("#chat-log .chat-line.own .chat-mute").is_visible(), "no muting yourself"
    line.locator(".chat-mute").click()
    assert not line.locator(".chat-text").is_visible() and line.locator(".chat-mute").inner_text() == "unmute"
    shot(xia, screens, "live-chat-muted")
    wes.fill(".chat-form input[name=text]", "still there?")
    wes.press(".chat-form input[name=text]", "Enter")
    later = xia.locator("#chat-log .chat-line", has_text="Wes").last
    xia.wait_for_function("() => document.querySelectorAll('#chat-log .chat-line').length === 3")
    assert not later.locator(".chat-text").is_visible(), "a muted player's new lines are folded too"
    xia.reload()
    xia.wait_for_selector("#table[data-synced]")
    assert xia.locator("#chat-log .chat-line").count() == 3, "the chat is kept with the table"
    assert not xia.locator("#chat-log .chat-line.muted").first.locator(".chat-text").is_visible(), "the mute is kept"


SUBSCRIBE = """
import datetime as dt
from django.utils import timezone
from accounts.models import Subscription, SubscriptionStatus, User
Subscription.objects.update_or_create(user=User.objects.get(username={name!r}), defaults=dict(
    status=SubscriptionStatus.ACTIVE, current_period_end=timezone.now() + dt.timedelta(days=30)))
"""


LISTED_LIVE_TABLE = LIVE_TABLE.replace('seed=11)', 'seed=11, listed=True)')  # offered to watchers


def test_watching_a_game_from_the_lobby_shows_the_play_and_no_hand(site, open_page, screens):
    code = live_table(site, "yan", "zoe", LISTED_LIVE_TABLE)
    site.session_for("abe")
    result = subprocess.run([sys.executable, "manage.py", "shell", "-c", SUBSCRIBE.format(name="abe")],
                            cwd=ROOT, env=site.env, capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    yan = open_page("yan")
    yan.goto(f"{site.url}/live/room/{code}/")
    yan.wait_for_selector("#table[data-synced]")
    abe = open_page("abe")
    abe.goto(f"{site.url}/live/")
    abe.click(f"#games-to-watch a[href='/live/room/{code}/']")
    abe.wait_for_selector("#table[data-synced]")
    assert "You are watching" in abe.inner_text("#t-me")
    assert abe.locator("#t-me .playing-card").count() == 0 and abe.locator(".leave-game").count() == 0
    yan.wait_for_selector(".chip-watchers:has-text('1 watching')", timeout=3000)
    # Yan passes: the watcher sees Yan's plate say so, and never the cards.
    passed = yan.eval_on_selector_all("#t-me label.playing-card", "cards => cards.slice(0, 3).map(c => c.dataset.card)")
    pass_three(yan)
    abe.wait_for_selector("#t-me .me-stats:has-text('passed')", timeout=3000)
    page = abe.content()
    assert not any(f'data-face="{card}"' in page or f'data-card="{card}"' in page for card in passed)
    shot(abe, screens, "live-watching")


# What the centre and the deal's result looked like, each time the page changed.
WATCH_THE_DEALS_END = """
window.dealEnd = {trick: null, summary: null};
new MutationObserver(() => {
  const final = document.querySelector('#t-centre .trick.final');
  const summary = document.querySelector('#t-overlay .deal-summary');
  const summaryShown = !!summary && getComputedStyle(summary).visibility === 'visible';
  if (final && !window.dealEnd.trick) {
    const caption = final.querySelector('.trick-caption');
    window.dealEnd.trick = {cards: final.querySelectorAll('.trick-card:not(.collected)').length,
                            caption: caption ? caption.innerText : '', summaryShown: summaryShown};
  }
  if (summaryShown && !window.dealEnd.summary) {
    window.dealEnd.summary = {collected: !final || !final.querySelector('.trick-card:not(.collected)')};
  }
}).observe(document, {subtree: true, childList: true, attributes: true, attributeFilter: ['class']});
"""


def test_the_last_trick_of_a_deal_is_shown_whole_before_the_deal_is_scored(site, open_page, screens):
    page = open_page("lou")
    page.context.add_init_script(WATCH_THE_DEALS_END)
    new_game(page, site, target="100")
    wait_for_turn(page)
    pass_three(page)
    for _ in range(20):
        wait_for_turn(page)
        if page.get_attribute("#table", "data-deal") != "1":
            break
        play_one(page)
    shot(page, screens, "table-last-trick-of-the-deal")
    page.wait_for_function("() => window.dealEnd.summary", timeout=20000)
    seen = page.evaluate("window.dealEnd")
    assert seen["trick"]["cards"] == 4, f"the deal's last trick was shown whole: {seen}"
    assert "the last trick of deal 1" in seen["trick"]["caption"]
    assert not seen["trick"]["summaryShown"], "the deal's result waits until its last trick is seen"
    assert seen["summary"]["collected"], "the result shows once the trick has gone to its taker"
    shot(page, screens, "table-deal-summary-after-last-trick")

    # The summary has the focus; Escape closes it and the focus goes back to the hand.
    page.wait_for_function("() => !!document.activeElement.closest('.deal-summary [data-dismiss]')")
    page.keyboard.press("Escape")
    page.wait_for_selector(".deal-summary.dismissed", state="attached")
    page.wait_for_function("() => !!document.activeElement.closest('#t-me')")
    assert page.locator(".pass-form").count() and "Choose 3 cards" in page.inner_text("#t-centre")
    page.click("[data-toggle=t-previous]")
    panel = page.locator("#t-previous")
    assert panel.locator("li").count() == 4 and "last trick of deal 1" in panel.inner_text()
    assert "No trick has been taken yet" not in panel.inner_text()

    # The score sheet: deal 1's points for everyone, and it stays open across updates.
    page.click("#t-sheet summary")
    rows = page.locator("#t-sheet tbody tr")
    assert rows.count() == 1 and rows.first.locator("td").count() == 4
    shot(page, screens, "table-score-sheet")
    pass_three(page)
    assert page.locator("#t-sheet[open]").count() == 1


def test_received_cards_keep_their_dot_dimmed_or_not_until_the_first_play(site, open_page, screens):
    page = open_page("rae")
    new_game(page, site, target="100")
    wait_for_turn(page)
    pass_three(page)
    wait_for_turn(page)
    received = page.locator("#t-me .playing-card.received")
    assert received.count() == 3
    dots = received.evaluate_all("cards => cards.map(c => getComputedStyle(c.querySelector('.pc-face')).backgroundImage)")
    assert all("radial-gradient" in dot for dot in dots), dots
    labels = received.evaluate_all("cards => cards.map(c => c.getAttribute('aria-label'))")
    assert all(", passed to you by " in label for label in labels), labels
    note = page.locator(".received-note")
    assert note.is_visible() and " passed you " in note.inner_text()
    if page.locator("#t-centre .trick-card").count():  # the 2♣ is down: the note still shows
        assert note.is_visible()
    if page.locator("#t-me .playing-card.received.dimmed").count():
        shot(page, screens, "table-received-dimmed")
    play_one(page)
    assert page.locator("#t-me .playing-card.received").count() == 0 and note.count() == 0


def test_the_first_tab_stop_skips_the_menu(site, open_page):
    page = open_page("sky")
    page.goto(site.url + "/")
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.className") == "skip-link"
    assert page.evaluate("document.activeElement.innerText") == "Skip to the content"
    assert page.locator(".skip-link").is_visible(), "shown while it has the focus"
    page.keyboard.press("Enter")
    page.wait_for_function("() => document.activeElement.id === 'main'")
    page.keyboard.press("Tab")
    assert page.evaluate("!document.activeElement.closest('.site-header') && !!document.activeElement.closest('main')")


def test_the_speed_setting_reaches_the_computers(site, open_page):
    page = open_page("pat")
    new_game(page, site)
    wait_for_turn(page)
    table_id = page.url.rstrip("/").split("/")[-1]
    page.select_option('[data-setting="speed"]', "instant")

    def pace() -> str:
        script = f"from games.models import Table; print(Table.objects.get(pk={table_id}).pace)"
        done = subprocess.run([sys.executable, "manage.py", "shell", "-c", script], cwd=ROOT, env=site.env,
                              capture_output=True, text=True, timeout=60)
        return done.stdout.strip().splitlines()[-1]

    for _ in range(50):
        if pace() == "instant":
            break
        page.wait_for_timeout(200)
    assert pace() == "instant"
    page.reload()  # the choice is remembered, and sent again with the socket
    page.wait_for_selector("#table[data-synced='1']")
    assert page.input_value('[data-setting="speed"]') == "instant"
