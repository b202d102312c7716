/* The card table's little bits of behaviour; the server decides everything else.
 * - tapping a dimmed card shows why it cannot be played (data-why, computed by the server)
 * - passing: choose exactly 3 cards
 * - the turn timer countdown (data-deadline)
 * - closing the deal summary (remembered for this tab)
 * - the new-game form hides computer seats beyond the number of players
 * Delegated listeners: they keep working when htmx swaps the table.
 */
(function () {
  if (window.heartsTable) return;
  window.heartsTable = true;

  var toastTimer = null;
  function showWhy(card) {
    var area = card.closest(".me-area") || document;
    var toast = area.querySelector(".why-toast");
    if (!toast) return;
    toast.textContent = card.getAttribute("data-why");
    toast.hidden = false;
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
    var card = event.target.closest("[data-why]");
    if (card && card.getAttribute("data-why")) {
      event.preventDefault();
      showWhy(card);
      return;
    }
    // Live play (ws-send): copy the pressed card/choice into a field, so the JSON frame has it
    // whether or not the ws extension includes the submit button's own value.
    var pressed = event.target.closest("form[ws-send] button[name]");
    if (pressed) {
      var field = pressed.form && pressed.form.querySelector('[data-chosen="' + pressed.name + '"]');
      if (field) field.value = pressed.value;
    }
    var dismiss = event.target.closest("[data-dismiss]");
    if (dismiss) {
      var overlay = dismiss.closest("[data-dismiss-key]");
      if (overlay) {
        overlay.classList.add("dismissed");
        try { sessionStorage.setItem(overlay.getAttribute("data-dismiss-key"), "1"); } catch (e) {}
      }
    }
  });

  document.addEventListener("change", function (event) {
    var input = event.target;
    if (input.name !== "cards") return;
    var form = input.closest(".pass-form");
    if (!form) return;
    var checked = form.querySelectorAll("input[name=cards]:checked");
    if (checked.length > 3) {
      input.checked = false;
      var count = form.querySelector(".pass-count");
      if (count) count.textContent = "Only 3 cards — tap a chosen card to put it back";
      return;
    }
    updatePass(form);
  });

  function setup(root) {
    root.querySelectorAll(".pass-form").forEach(updatePass);
    root.querySelectorAll("[data-dismiss-key]").forEach(function (overlay) {
      try {
        if (sessionStorage.getItem(overlay.getAttribute("data-dismiss-key"))) overlay.classList.add("dismissed");
      } catch (e) {}
    });
    var players = document.querySelector(".setup-form");
    if (players) updateSeats(players);
  }

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

  function tick() {
    document.querySelectorAll(".countdown[data-deadline]").forEach(function (chip) {
      var left = Math.max(0, Math.ceil((Date.parse(chip.getAttribute("data-deadline")) - Date.now()) / 1000));
      var value = chip.querySelector(".countdown-value");
      if (value) value.textContent = left;
      chip.classList.toggle("low", left <= 10);
    });
  }
  setInterval(tick, 500);

  document.addEventListener("DOMContentLoaded", function () { setup(document); tick(); });
  document.addEventListener("htmx:afterSettle", function () { setup(document); tick(); });
  
})();
