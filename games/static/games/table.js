/* The card table in the browser. The server decides and draws everything; this script only
 * keeps what the player was doing across updates, and moves and paces what the server drew.
 *
 * - Updates come over the table's websocket (htmx ws extension) as the parts of the table that
 *   changed, each an element with a stable id (games.presenters.draw_table): htmx out-of-band
 *   swaps, as the extension reads a frame. They are queued here, one frame after another, and
 *   handed to htmx.swap, rather than swapped as they arrive, so that a card can be seen to
 *   arrive and a finished trick stays long enough to read before it goes to whoever took it.
 * - Across updates the player keeps: the cards ticked to pass, focus in the hand, the open
 *   "Last trick" panel, a dismissed deal summary, the speed and sound settings.
 * - The hand is one Tab stop, moved along with the arrows; a screen reader hears what happens
 *   from one live region that is never replaced (#t-live).
 * - Every move sent carries the table version the player saw (#table[data-version]), so a
 *   double click or a move made on an older position changes nothing.
 * - Your turn: the tab's title says so (with the seconds left on a timed table), focus goes
 *   to your hand, a sound if asked for, and a browser notification if asked for while the
 *   tab is hidden (live tables).
 * - Tapping a card that cannot be played says why (data-why, from the server).
 * - The socket is opened again after the server closed it for a fault (code 4503): the
 *   extension itself only reconnects after a dropped connection.
 */
(function () {
  if (window.heartsTable) return;
  window.heartsTable = true;

  var TRY_AGAIN = 4503;
  var SPEEDS = {  // milliseconds: a card sliding in, a finished trick shown, the trick leaving
    slow: { slide: 450, hold: 1800, collect: 550 },
    normal: { slide: 280, hold: 1000, collect: 380 },
    fast: { slide: 140, hold: 450, collect: 200 },
    instant: { slide: 0, hold: 250, collect: 0 }
  };
  var TURN_MARK = /^● Your turn( · \d+s)? · /;

  function setting(name, fallback) {
    try { return localStorage.getItem("hearts." + name) || fallback; } catch (e) { return fallback; }
  }
  function speed() { return SPEEDS[setting("speed", "normal")] || SPEEDS.normal; }
  function reducedMotion() {
    return window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
  }

  // ------------------------------------------------------------------ updates, in order

  var queue = [];
  var busyUntil = 0;
  var pumping = null;

  document.addEventListener("htmx:wsBeforeMessage", function (event) {
    if (!document.getElementById("table")) return;  // not a table page: the extension swaps
    event.preventDefault();
    queue.push(event.detail.message);
    pump();
  });

  // The offline table (solo/offline.js) hands over its changes as the socket would.
  document.addEventListener("hearts:update", function (event) {
    queue.push(event.detail);
    pump();
  });

  function pump() {
    if (pumping) return;
    var wait = busyUntil - Date.now();
    if (wait > 0) {
      pumping = setTimeout(function () { pumping = null; pump(); }, wait);
      return markQueued();
    }
    while (queue.length && busyUntil <= Date.now()) apply(queue.shift());
    if (queue.length) pump();
    markQueued();
  }
  // Updates received but not yet shown: the table on the page is not the latest one the
  // server sent (tests wait for this to go, as a person would wait for the cards to settle).
  function markQueued() {
    if (document.body) document.body.toggleAttribute("data-updates-queued", queue.length > 0);
  }

  var applying = false;  // a frame is being swapped in by apply

  // Each top element of a frame is an out-of-band swap of the element with its id: it replaces
  // it, unless its hx-swap-oob says "beforeend" (cards added to the trick, chat lines) or
  // "delete" (a card that left the hand); one whose element is not on this page is dropped.
  function apply(message) {
    var template = document.createElement("template");
    template.innerHTML = message;
    var before = remember();
    var heard = [];
    Array.prototype.slice.call(template.content.children).forEach(function (incoming) {
      var current = incoming.id && document.getElementById(incoming.id);
      if (!current) {
        incoming.remove();
        return;
      }
      var words = newWords(incoming, current);
      if (words) heard.push(words);
      if (incoming.id === "chat-log" && incoming.getAttribute("hx-swap-oob") === "beforeend") chatArrived(incoming);
      if (!incoming.hasAttribute("hx-swap-oob")) incoming.setAttribute("hx-swap-oob", "true");
    });
    applying = true;  // htmx settles each swapped element within the call: set up once, below
    try {
      htmx.swap(document.body, template.innerHTML, { swapStyle: "none", swapDelay: 0, settleDelay: 0 });
    } finally {
      applying = false;
    }
    markChat();
    followState();
    goToRematch();
    var table = document.getElementById("table");
    // This table came through the socket (the page's own copy is replaced by the first frame).
    if (table) table.setAttribute("data-synced", "1");
    restore(before);
    setup(document);
    tick();
    animate(before);
    offerSummary();
    say(heard.join(" "));
  }

  // ------------------------------------------------------------------ what a screen reader hears

  /* One live region for the whole table, made once and never replaced (a region that is itself
   * replaced is often not read). The parts that speak (SPOKEN) carry no live role of their own:
   * what is new in them is said here. */
  var SPOKEN = { "t-announce": true, "t-alert": true, "t-hint": true, "t-coach": true, "t-me": true };
  var lastSaid = "";
  function liveRegion() {
    var region = document.getElementById("t-live");
    if (!region && document.body) {
      region = document.createElement("div");
      region.id = "t-live";
      region.className = "sr-only";
      region.setAttribute("aria-live", "polite");
      region.setAttribute("aria-atomic", "true");
      document.body.appendChild(region);
    }
    return region;
  }
  function say(words) {
    var region = liveRegion();
    if (!words || !region) return;
    // The same words again (a second refusal, say) are a change too: alternate a trailing space.
    region.textContent = words === lastSaid.trim() ? words + (lastSaid.slice(-1) === " " ? "" : " ") : words;
    lastSaid = region.textContent;
  }
  function newWords(incoming, current) {
    if (!SPOKEN[incoming.id]) return "";
    if (incoming.id === "t-coach") {  // the notes not shown before
      return Array.prototype.filter.call(incoming.querySelectorAll("[data-note]"), function (note) {
        return !current.querySelector('[data-note="' + note.getAttribute("data-note") + '"]');
      }).map(function (note) { return note.textContent.trim(); }).join(" ");
    }
    if (incoming.id === "t-me") {  // a live seat's "You are away" banner, when it comes
      var banner = incoming.querySelector(".away-banner");
      return banner && !current.querySelector(".away-banner") ? banner.textContent.trim() : "";
    }
    var text = incoming.textContent.trim();
    return text !== current.textContent.trim() ? text : "";
  }

  /* A deal's summary, once shown, takes the focus from the hand (its button: Enter or Escape
   * closes it, and the focus goes back to the hand); not from a chat line being typed. */
  var offered = null;
  function visibleSummary() {
    return document.querySelector("#t-overlay .deal-summary:not(.dismissed):not(.after-trick)");
  }
  function offerSummary() {
    var summary = visibleSummary();
    if (!summary || offered === summary.getAttribute("data-dismiss-key")) return;
    var active = document.activeElement;
    var hand = document.getElementById("t-me");
    if (active && active !== document.body && !(hand && hand.contains(active))) return;
    offered = summary.getAttribute("data-dismiss-key");
    var button = summary.querySelector("[data-dismiss]");
    if (button) button.focus({ preventScroll: true });
  }
  document.addEventListener("keydown", function (event) {
    if (event.key !== "Escape") return;
    var summary = visibleSummary();
    var button = summary && summary.querySelector("[data-dismiss]");
    if (button) button.click();
  });

  /* Whoever said yes to a rematch is taken to its table when it starts. */
  var goneTo = null;
  function goToRematch() {
    var link = document.querySelector("#table a[data-go]");
    if (!link || goneTo) return;
    goneTo = link.href;
    location.assign(link.href);
  }

  /* What the player was doing, before an update replaces parts of the table. */
  function remember() {
    var active = document.activeElement;
    var hand = document.getElementById("t-me");
    var centre = document.getElementById("t-centre");
    var state = document.getElementById("t-state");
    var focused = null;
    if (active && hand && hand.contains(active) && active.closest(".playing-card")) {
      var card = active.closest(".playing-card");
      var cards = Array.prototype.slice.call(hand.querySelectorAll(".playing-card"));
      focused = { card: card.getAttribute("data-card"), index: cards.indexOf(card) };
    }
    var ticked = hand ? Array.prototype.map.call(hand.querySelectorAll("input[name=cards]:checked"),
      function (input) { return input.value; }) : [];
    var previous = document.getElementById("t-previous");
    return {
      hand: hand,
      centre: centre,
      focused: focused,
      focusedElsewhere: active && active !== document.body && !(hand && hand.contains(active)),
      ticked: ticked,
      previousOpen: previous ? !previous.hidden : false,
      sheetOpen: !!document.querySelector("#t-sheet[open]"),
      trackerOpen: !!document.querySelector("#t-tracker[open]"),
      turn: turnKey(state),
      trickCards: centre ? cardsIn(centre) : {}
    };
  }

  function cardsIn(centre) {
    var found = {};
    centre.querySelectorAll(".trick-card[data-card]").forEach(function (card) { found[card.getAttribute("data-card")] = true; });
    return found;
  }

  function restore(before) {
    var hand = document.getElementById("t-me");
    if (hand && hand !== before.hand) {
      var form = hand.querySelector(".pass-form");
      if (form && before.ticked.length && !form.querySelector("input[name=cards]:checked")) {
        before.ticked.forEach(function (code) {
          var input = form.querySelector('input[name=cards][value="' + code + '"]');
          if (input) input.checked = true;
        });
      }
    }
    // The hand, or only the focused card, may have been replaced.
    if (hand && !hand.contains(document.activeElement)) {
      if (before.focused) {
        var cards = hand.querySelectorAll(".playing-card");
        var same = hand.querySelector('.playing-card[data-card="' + before.focused.card + '"]');
        var target = same || cards[Math.min(before.focused.index, cards.length - 1)];
        if (target) focusCard(target);
      }
    }
    var previous = document.getElementById("t-previous");
    if (previous) previous.hidden = !before.previousOpen;
    var sheet = document.getElementById("t-sheet");
    if (sheet) sheet.open = before.sheetOpen;
    var tracker = document.getElementById("t-tracker");
    if (tracker) tracker.open = before.trackerOpen;
    var toggle = document.querySelector('[data-toggle="t-previous"]');
    if (toggle) toggle.setAttribute("aria-expanded", before.previousOpen ? "true" : "false");
    var turn = turnKey(document.getElementById("t-state"));
    if (turn && turn !== before.turn) yourTurn(before);
  }

  /* Which decision the player is asked for, or null when it is not their turn. A new key is a
   * new turn even when no frame showed someone else's turn in between: after a pass the lead
   * may come in the same update, and so may the next card after the others have played. While
   * passing, others' passes change the version but not the decision. */
  function turnKey(state) {
    if (!state || state.getAttribute("data-my-turn") !== "1") return null;
    var phase = state.getAttribute("data-phase");
    return [state.getAttribute("data-deal"), phase, phase === "pass" ? "" : state.getAttribute("data-version")].join(":");
  }

  function focusCard(card) {
    var element = control(card);
    if (element) element.focus({ preventScroll: true });
  }

  /* #table's own classes, version and whose turn it is follow the #t-state part (the root is
   * not resent; the stylesheet marks the seats to act from #table[data-turn]). */
  function followState() {
    var table = document.getElementById("table");
    var state = document.getElementById("t-state");
    if (!table || !state) return;
    var phase = state.getAttribute("data-phase");
    table.setAttribute("data-version", state.getAttribute("data-version"));
    table.setAttribute("data-phase", phase);
    table.setAttribute("data-deal", state.getAttribute("data-deal"));
    table.setAttribute("data-turn", state.getAttribute("data-turn"));
    table.className = table.className.replace(/\bphase-\S+/g, "").trim() + " phase-" + phase;
    table.classList.toggle("my-turn", state.getAttribute("data-my-turn") === "1");
    table.classList.toggle("is-over", state.getAttribute("data-over") === "1");
    title(state.getAttribute("data-my-turn") === "1", secondsLeft());
  }

  // ------------------------------------------------------------------ your turn

  /* "● Your turn · 25s · Hearts" while it is your turn (the seconds on a timed table). */
  function title(myTurn, secondsLeft) {
    var plain = document.title.replace(TURN_MARK, "");
    var left = secondsLeft === undefined || secondsLeft === null ? "" : " · " + secondsLeft + "s";
    document.title = myTurn ? "● Your turn" + left + " · " + plain : plain;
  }

  function myTurnNow() {
    var table = document.getElementById("table");
    return !!table && table.classList.contains("my-turn");
  }

  function yourTurn(before) {
    if (!before.quiet && setting("sound", "") === "on") chime();
    if (!before.quiet && document.hidden) notify();
    if (before.focusedElsewhere) return;  // the player is busy elsewhere on the page
    var hand = document.getElementById("t-me");
    if (!hand) return;
    var current = document.activeElement && document.activeElement.closest(".playing-card");
    if (current && hand.contains(current) && (current.matches(".legal") || current.matches("label"))) return;
    var first = hand.querySelector(".playing-card.legal") || hand.querySelector("label.playing-card");
    if (first) focusCard(first);
  }

  /* A browser notification, when the player asked for them and allowed them. */
  function notify() {
    if (setting("notify", "") !== "on" || !window.Notification || Notification.permission !== "granted") return;
    try {
      var status = document.getElementById("t-status");
      var note = new Notification("Your turn at Hearts", {
        body: status ? status.textContent.trim() : "", tag: "hearts-turn-" + location.pathname
      });
      note.onclick = function () { window.focus(); note.close(); };
    } catch (e) {}
  }

  var audio = null;
  function chime() {
    try {
      audio = audio || new (window.AudioContext || window.webkitAudioContext)();
      var tone = audio.createOscillator(), gain = audio.createGain();
      tone.frequency.value = 660;
      gain.gain.setValueAtTime(0.12, audio.currentTime);
      gain.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + 0.35);
      tone.connect(gain).connect(audio.destination);
      tone.start();
      tone.stop(audio.currentTime + 0.35);
    } catch (e) {}
  }

  // ------------------------------------------------------------------ motion

  var playedFrom = null;  // where the card the player just played was, to slide it from there

  function centreOf(element) {
    var box = element.getBoundingClientRect();
    return { x: box.left + box.width / 2, y: box.top + box.height / 2 };
  }

  function seatElement(seat) {
    var table = document.getElementById("table");
    if (table && String(seat) === table.getAttribute("data-seat")) return document.querySelector("#t-me .hand");
    return document.querySelector("#t-seat-" + seat + " .plate");
  }

  function animate(before) {
    var centre = document.getElementById("t-centre");
    if (!centre) return;
    var arrived = Array.prototype.filter.call(centre.querySelectorAll(".trick-card[data-card]"), function (card) {
      return !before.trickCards[card.getAttribute("data-card")];
    });
    // The centre is replaced, or cards are added to its trick (a beforeend swap).
    if (centre === before.centre && !arrived.length) return;
    var times = speed();
    var still = reducedMotion();
    if (arrived.length && !still) {
      arrived.forEach(function (card) {
        var from = playedFrom && playedFrom.card === card.getAttribute("data-card") ? playedFrom.at : null;
        var seat = seatElement(card.getAttribute("data-seat"));
        from = from || (seat && centreOf(seat));
        if (!from) return;
        var to = centreOf(card);
        card.firstElementChild.animate([
          { transform: "translate(" + (from.x - to.x) + "px," + (from.y - to.y) + "px) scale(.85)", opacity: 0.7 },
          { transform: "none", opacity: 1 }
        ], { duration: times.slide, easing: "cubic-bezier(.2,.7,.3,1)" });
      });
      busyUntil = Math.max(busyUntil, Date.now() + times.slide);
    }
    playedFrom = null;
    var caption = centre.querySelector(".trick-caption");  // the trick is finished
    var taken = caption && caption.parentNode;
    if (taken && arrived.length) {
      // A trick just finished: show it, then send it to whoever took it.
      var shown = Date.now() + (arrived.length ? (still ? 0 : times.slide) : 0) + times.hold;
      busyUntil = Math.max(busyUntil, shown + (still ? 0 : times.collect));
      // The deal's (or the game's) last trick: its result waits until the trick has gone.
      var result = document.querySelector("#t-overlay .deal-summary, #t-overlay .game-over");
      if (result) result.classList.add("after-trick");
      setTimeout(function () {
        collect(taken, still ? 0 : times.collect, function () {
          if (!result) return;
          result.classList.remove("after-trick");
          offerSummary();
        });
      }, shown - Date.now());
    } else if (taken && taken.classList.contains("final")) {
      collect(taken, 0);  // seen already: the note under it shows
    }
  }

  /* Sends a taken trick to whoever took it, then calls ``done`` (if given). */
  function collect(trick, duration, done) {
    var finish = done || function () {};
    if (!trick.isConnected) return finish();
    var winner = seatElement(trick.querySelector(".trick-caption").getAttribute("data-winner"));
    var to = winner ? centreOf(winner) : null;
    var cards = trick.querySelectorAll(".trick-card");
    var left = cards.length;
    function gone(card) {
      card.classList.add("collected");
      left -= 1;
      if (!left) finish();
    }
    if (!left) return finish();
    cards.forEach(function (card) {
      if (!duration || !to) return gone(card);
      var from = centreOf(card);
      var motion = card.firstElementChild.animate([
        { transform: "none", opacity: 1 },
        { transform: "translate(" + (to.x - from.x) + "px," + (to.y - from.y) + "px) scale(.5)", opacity: 0 }
      ], { duration: duration, easing: "ease-in" });
      motion.onfinish = motion.oncancel = function () { gone(card); };
    });
  }

  // ------------------------------------------------------------------ sending moves

  document.addEventListener("htmx:wsConfigSend", function (event) {
    if (offline) {  // made on a table that may be out of date: never sent late
      event.preventDefault();
      connectionState(false);
      return;
    }
    var table = document.getElementById("table");
    if (table && event.detail && event.detail.parameters) {
      event.detail.parameters.version = Number(table.getAttribute("data-version"));
    }
  });

  var toastTimer = null;
  function showWhy(card, why) {
    var area = card.closest(".me-area") || document;
    var toast = area.querySelector(".why-toast") || document.querySelector(".why-toast");
    if (!toast) return;
    toast.textContent = why;
    toast.hidden = false;
    say(why);
    card.classList.remove("shake");
    void card.offsetWidth;
    card.classList.add("shake");
    clearTimeout(toastTimer);
    toastTimer = setTimeout(function () { toast.hidden = true; }, 3500);
  }

  function updatePass(form) {
    var checked = form.querySelectorAll("input[name=cards]:checked").length;
    var button = form.querySelector(".pass-button");
    var count = form.querySelector(".pass-count");
    if (button) button.disabled = checked !== 3;
    if (count) {
      count.textContent = checked === 3 ? "Ready to pass" : checked + " of 3 chosen";
    }
  }

  document.addEventListener("click", function (event) {
    // A card that cannot be played says why: its own reason, or the one the status line
    // holds for the rest of the hand.
    var card = event.target.closest('#t-me .playing-card[aria-disabled="true"]');
    var status = document.getElementById("t-status");
    var why = card && (card.getAttribute("data-why") || (status && status.getAttribute("data-why")));
    if (why) {
      event.preventDefault();
      showWhy(card, why);
      return;
    }
    // Copy the pressed card/choice into a field, so the JSON frame has it whether or not the
    // ws extension includes the submit button's own value.
    var pressed = event.target.closest("form[ws-send] button[name]");
    if (pressed) {
      var field = pressed.form && pressed.form.querySelector('[data-chosen="' + pressed.name + '"]');
      if (field) field.value = pressed.value;
      if (pressed.name === "card") playedFrom = { card: pressed.value, at: centreOf(pressed) };
    }
    var dismiss = event.target.closest("[data-dismiss]");
    if (dismiss) {
      var overlay = dismiss.closest("[data-dismiss-key]");
      if (overlay) {
        overlay.classList.add("dismissed");
        try { sessionStorage.setItem(overlay.getAttribute("data-dismiss-key"), "1"); } catch (e) {}
        var hand = document.querySelector("#t-me .playing-card.legal, #t-me label.playing-card");
        if (hand) focusCard(hand);
      }
    }
    var toggle = event.target.closest("[data-toggle]");
    if (toggle) {
      var panel = document.getElementById(toggle.getAttribute("data-toggle"));
      if (panel) {
        panel.hidden = !panel.hidden;
        toggle.setAttribute("aria-expanded", panel.hidden ? "false" : "true");
        // Opened below the fold on a phone: bring it into view.
        if (!panel.hidden && panel.scrollIntoView) panel.scrollIntoView({ block: "nearest", behavior: reducedMotion() ? "auto" : "smooth" });
      }
    }
  });

  /* The hand is one Tab stop (the WAI-ARIA toolbar pattern, a "roving tabindex"): arrows, Home
   * and End move along it, and Tab goes on to what follows the hand. The stop is the card last
   * focused in the hand if it is still there, else the first that can be played, else the
   * first. */
  var handStop = null;
  function handCards() { return Array.prototype.slice.call(document.querySelectorAll("#t-me .hand .playing-card")); }
  function control(card) { return card.matches("label") ? card.querySelector("input") : card; }
  function rove() {
    var cards = handCards();
    if (!cards.length) return;
    var stop = (handStop && cards.filter(function (card) { return card.getAttribute("data-card") === handStop; })[0]) ||
      cards.filter(function (card) { return card.matches(".legal"); })[0] || cards[0];
    cards.forEach(function (card) {
      var element = control(card);
      if (element) element.setAttribute("tabindex", card === stop ? "0" : "-1");
    });
  }
  document.addEventListener("focusin", function (event) {
    var card = event.target.closest && event.target.closest("#t-me .hand .playing-card");
    if (!card) return;
    handStop = card.getAttribute("data-card");
    rove();
  });
  var MOVES = { ArrowLeft: -1, ArrowUp: -1, ArrowRight: 1, ArrowDown: 1, Home: -Infinity, End: Infinity };
  document.addEventListener("keydown", function (event) {
    if (!(event.key in MOVES) || event.altKey || event.ctrlKey || event.metaKey) return;
    var card = event.target.closest && event.target.closest("#t-me .hand .playing-card");
    if (!card) return;
    var cards = handCards();
    var at = cards.indexOf(card) + MOVES[event.key];
    var next = cards[Math.max(0, Math.min(cards.length - 1, at))];  // Home and End: ±Infinity
    event.preventDefault();
    if (next && next !== card) focusCard(next);
  });

  document.addEventListener("change", function (event) {
    var input = event.target;
    if (input.matches("[data-setting]")) {
      var value = input.type === "checkbox" ? (input.checked ? "on" : "") : input.value;
      try { localStorage.setItem("hearts." + input.getAttribute("data-setting"), value); } catch (e) {}
      if (input.getAttribute("data-setting") === "notify" && input.checked && window.Notification &&
          Notification.permission === "default") {
        Notification.requestPermission();  // asked here, when the player ticks the box
      }
      return;
    }
    if (input.name !== "cards") return;
    var form = input.closest(".pass-form");
    if (!form) return;
    var count = form.querySelector(".pass-count");
    if (form.querySelectorAll("input[name=cards]:checked").length > 3) {
      input.checked = false;
      if (count) count.textContent = "Only 3 cards — tap a chosen card to put it back";
    } else {
      updatePass(form);
    }
    if (count) say(count.textContent);
  });

  function setup(root) {
    root.querySelectorAll(".pass-form").forEach(updatePass);
    rove();
    root.querySelectorAll("[data-dismiss-key]").forEach(function (overlay) {
      try {
        if (sessionStorage.getItem(overlay.getAttribute("data-dismiss-key"))) overlay.classList.add("dismissed");
      } catch (e) {}
    });
    root.querySelectorAll("[data-setting]").forEach(function (input) {
      var value = setting(input.getAttribute("data-setting"), "");
      if (input.type === "checkbox") input.checked = value === "on";
      else if (value) input.value = value;
    });
    var players = document.querySelector(".setup-form");
    if (players) updateSeats(players);
  }

  /* A form drawn for the socket has no CSRF token (it was drawn without a request): one that
   * posts to a page (leave the game, rematch) takes the page's token when it is sent. */
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!form.matches || !form.matches('form[method="post"]:not([ws-send])')) return;
    if (form.querySelector("input[name=csrfmiddlewaretoken]")) return;
    try {
      var token = JSON.parse(document.body.getAttribute("hx-headers") || "{}")["X-CSRFToken"];
      if (!token) return;
      var input = document.createElement("input");
      input.type = "hidden";
      input.name = "csrfmiddlewaretoken";
      input.value = token;
      form.appendChild(input);
    } catch (e) {}
  }, true);

  // ------------------------------------------------------------------ the table's chat

  function muted() {
    try { return JSON.parse(localStorage.getItem("hearts.muted") || "[]"); } catch (e) { return []; }
  }

  /* Lines of muted players are folded; your own lines have no mute or report button. */
  function markChat() {
    var chat = document.getElementById("chat");
    var log = document.getElementById("chat-log");
    if (!chat || !log) return;
    var quiet = muted();
    log.querySelectorAll(".chat-line").forEach(function (line) {
      var author = line.getAttribute("data-author");
      var isMuted = quiet.indexOf(author) >= 0;
      line.classList.toggle("muted", isMuted);
      line.classList.toggle("own", author === chat.getAttribute("data-me"));
      var button = line.querySelector(".chat-mute");
      if (button) button.textContent = isMuted ? "unmute" : "mute";
    });
    log.scrollTop = log.scrollHeight;
  }

  document.addEventListener("click", function (event) {
    var button = event.target.closest(".chat-mute");
    if (!button) return;
    var author = button.getAttribute("data-mute");
    var quiet = muted();
    var at = quiet.indexOf(author);
    if (at >= 0) quiet.splice(at, 1); else quiet.push(author);
    try { localStorage.setItem("hearts.muted", JSON.stringify(quiet)); } catch (e) {}
    markChat();
  });

  /* A line sent stays in the box until it comes back in the log: a refused one (too fast,
     too long) is kept to send again, and the reason is shown in the chat (#chat-notice). */
  var pendingChat = null;
  document.addEventListener("htmx:wsAfterSend", function (event) {
    var form = event.target.closest && event.target.closest(".chat-form");
    if (form) pendingChat = form;
  });
  function chatArrived(incoming) {
    var chat = document.getElementById("chat");
    if (!pendingChat || !chat) return;
    var mine = incoming.querySelector('.chat-line[data-author="' + chat.getAttribute("data-me") + '"]');
    if (!mine) return;
    pendingChat.reset();
    pendingChat = null;
    var notice = document.getElementById("chat-notice");
    if (notice) notice.textContent = "";
  }

  // ------------------------------------------------------------------ the new-game form

  function updateSeats(form) {
    var chosen = form.querySelector("input[name=players]:checked");
    var n = chosen ? parseInt(chosen.value, 10) : 4;
    form.querySelectorAll(".bot-seat").forEach(function (label) {
      var seat = parseInt(label.getAttribute("data-seat"), 10);
      label.classList.toggle("unused", seat >= n);
    });
    var custom = form.querySelector("input[name=target_custom]");
    var target = form.querySelector("input[name=target]:checked");
    if (custom && target) custom.disabled = target.value !== "custom";
  }
  document.addEventListener("change", function (event) {
    var form = event.target.closest(".setup-form");
    if (!form) return;
    if (event.target.name === "all_bots" && event.target.value) {
      // One level for every computer: the seats below show it (the server applies it too).
      form.querySelectorAll(".bot-seat select").forEach(function (select) { select.value = event.target.value; });
    } else if (event.target.closest(".bot-seat")) {
      var all = form.querySelector("select[name=all_bots]");
      if (all) all.value = "";  // a seat set on its own: no longer one level for all
    }
    updateSeats(form);
  });

  // ------------------------------------------------------------------ the turn timer

  function secondsLeft() {
    var chip = document.querySelector(".countdown[data-deadline]");
    if (!chip) return null;
    return Math.max(0, Math.ceil((Date.parse(chip.getAttribute("data-deadline")) - Date.now()) / 1000));
  }

  function tick() {
    var left = secondsLeft();
    document.querySelectorAll(".countdown[data-deadline]").forEach(function (chip) {
      var value = chip.querySelector(".countdown-value");
      if (value) value.textContent = left;
      chip.classList.toggle("low", left <= 10);
    });
    document.querySelectorAll("[data-until]").forEach(function (chip) {  // the rematch's answer
      var value = chip.querySelector(".until-value");
      var until = Math.max(0, Math.ceil((Date.parse(chip.getAttribute("data-until")) - Date.now()) / 1000));
      if (value) value.textContent = until;
    });
    if (document.getElementById("table")) title(myTurnNow(), left);
  }
  setInterval(tick, 500);

  // ------------------------------------------------------------------ the socket

  var attempts = 0;
  var openedAt = 0;
  var offline = false;
  var RECONNECTING = [1006, 1011, 1012, 1013, TRY_AGAIN];  // the codes the socket comes back after

  /* Whether the table's socket is open, shown at once: while it is not, the table may be out
     of date, so the clock is hidden and nothing the player does is sent. */
  function connectionState(open) {
    offline = !open;
    var socket = document.getElementById("live-socket") || document.getElementById("table");
    if (!socket) return;
    socket.classList.toggle("reconnecting", offline);
    var note = document.getElementById("connection-state");
    if (!note) {
      note = document.createElement("div");
      note.id = "connection-state";
      note.className = "connection-state";
      note.setAttribute("role", "status");
      socket.parentNode.insertBefore(note, socket);
    }
    note.textContent = offline ? "Connection lost. Reconnecting… you can play again once the table is back." : "";
    note.hidden = !offline;
  }

  document.addEventListener("htmx:wsOpen", function () { openedAt = Date.now(); connectionState(true); sendPace(); });

  /* A solo table plays its computers at the chosen speed (the server's pace); a click on the
   * table's centre while they are to play asks them not to wait. */
  function sendThrough(id, values) {
    var form = document.getElementById(id);
    if (!form || !window.htmx || offline) return;
    Object.keys(values).forEach(function (name) { form.elements[name].value = values[name]; });
    htmx.trigger(form, "submit");
  }
  function sendPace() { sendThrough("pace-form", { pace: setting("speed", "normal") }); }
  document.addEventListener("change", function (event) {
    if (event.target.matches && event.target.matches('[data-setting="speed"]')) setTimeout(sendPace, 0);
  });
  document.addEventListener("click", function (event) {
    var table = document.getElementById("table");
    if (!table || !event.target.closest("#t-centre") || table.classList.contains("my-turn")) return;
    if (table.getAttribute("data-phase") !== "play") return;
    sendThrough("hurry-form", {});
    busyUntil = 0;  // and what has come already is shown at once
    if (pumping) { clearTimeout(pumping); pumping = null; }
    pump();
  });
  document.addEventListener("htmx:wsClose", function (event) {
    var detail = event.detail || {};
    if (event.target.isConnected && detail.event && RECONNECTING.indexOf(detail.event.code) >= 0) {
      connectionState(false);
    }
    if (!detail.event || detail.event.code !== TRY_AGAIN || !detail.socketWrapper) return;
    if (!event.target.isConnected) return;  // the table left the page
    if (Date.now() - openedAt > 10000) attempts = 0;  // it had worked for a while: a new fault
    var pause = Math.min(1000 * Math.pow(2, attempts), 15000) * (0.5 + Math.random() / 2);
    attempts += 1;
    setTimeout(function () { detail.socketWrapper.reconnect(); }, pause);
  });

  // A table drawn whole: with the page, or by the offline table (solo/offline.js).
  function shown() {
    liveRegion();
    // The last deal's last trick, drawn with the page: it is in "Last trick", not in the way.
    document.querySelectorAll("#t-centre .trick.final").forEach(function (trick) { collect(trick, 0); });
    markChat();
    setup(document);
    followState();
    tick();
    var state = document.getElementById("t-state");
    if (state && state.getAttribute("data-my-turn") === "1") yourTurn({ focusedElsewhere: false, quiet: true });
    offerSummary();
  }
  document.addEventListener("DOMContentLoaded", shown);
  document.addEventListener("hearts:shown", shown);
  // The page's other swaps (forms, panels); a frame's are set up by apply.
  document.addEventListener("htmx:afterSettle", function () {
    if (applying) return;
    setup(document);
    tick();
  });
})();
