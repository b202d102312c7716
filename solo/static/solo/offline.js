/* The offline table: solo play with no server.  Pyodide (from the site, kept by the service
   worker) runs games.offline: the same engine, computers and table drawing as the server.
   This script only starts it, keeps the games in localStorage, sends the player's moves to
   it and hands the changed parts of the table to table.js, as the socket does online. */
(function () {
  var page = document.getElementById("offline");
  if (!page) return;
  var STORE = "hearts.offline.games";
  var status = document.getElementById("offline-status");
  var tableBox = document.getElementById("offline-table");
  var start = document.getElementById("offline-start");
  var list = document.getElementById("offline-games");
  var sync = document.getElementById("offline-sync");
  var py = null, tables = null, table = null, busy = false, thinking = [], drawing = [];

  var THINKING = { slow: 800, normal: 450, fast: 150, instant: 0 };  // ms before a computer's card, by the table's speed
  function setting(name) {
    try { return localStorage.getItem("hearts." + name); } catch (e) { return null; }
  }
  function say(text) { status.textContent = text; }
  function games() {
    try { return JSON.parse(localStorage.getItem(STORE) || "{}"); } catch (e) { return {}; }
  }
  function keep(saved) {
    var all = games();
    var before = all[saved.id];
    if (before && before.kept) saved.kept = before.kept;
    if (before && before.refused) saved.refused = before.refused;
    all[saved.id] = saved;
    try { localStorage.setItem(STORE, JSON.stringify(all)); } catch (e) { say("This device has no room left to keep the game."); }
  }
  function wait(ms) { return new Promise(function (done) { setTimeout(done, ms); }); }
  function saveTable() { keep(JSON.parse(table.saved_json())); }

  function isOver(saved) { return !!(saved.game && saved.game.state && saved.game.state.phase === "over"); }
  function csrfToken() {
    var found = document.cookie.match(/(?:^|; )csrftoken=([^;]+)/);
    return found ? decodeURIComponent(found[1]) : "";
  }

  // Finished games go to the player's account when the network is back: the server replays
  // them and keeps them with the player's games, or says why not.
  var sending = false;
  async function sendFinished() {
    if (sending || !navigator.onLine) return;
    sending = true;
    try {
      var all = games();
      for (var id in all) {
        var saved = all[id];
        if (saved.kept || saved.refused || !isOver(saved)) continue;
        var response;
        try {
          response = await fetch(page.getAttribute("data-keep"), {
            method: "POST", credentials: "same-origin", body: JSON.stringify(saved),
            headers: { "Content-Type": "application/json", "X-CSRFToken": csrfToken() }
          });
        } catch (e) { return; }  // no network after all: next time
        var answer = {};
        try { answer = await response.json(); } catch (e) {}
        if (response.status === 403) { sync.textContent = answer.error || "Sign in to keep your offline games."; return; }
        if (response.ok) saved.kept = answer.replay_url || "yes";
        else if (response.status === 400) saved.refused = answer.error || "Refused.";
        else return;  // the server is in trouble: next time
        keep(saved);
      }
      sync.textContent = "";
    } finally {
      sending = false;
      if (!table) showGames();
      else showGames(true);
    }
  }
  window.addEventListener("online", sendFinished);
  // Also when the player comes back to the page: an "online" event can be missed, and a send
  // that failed waits for the next chance.
  document.addEventListener("visibilitychange", function () { if (!document.hidden) sendFinished(); });

  /* When a game began, in the player's own time zone ("5 Dec, 14:03"). */
  function localTime(iso) {
    var when = new Date(iso || "");
    if (isNaN(when)) return "an unknown day";
    return when.toLocaleString(undefined, { day: "numeric", month: "short", hour: "2-digit", minute: "2-digit" });
  }

  function showGames(keepHidden) {
    var all = games();
    var ids = Object.keys(all).sort(function (a, b) { return (all[b].started || "").localeCompare(all[a].started || ""); });
    list.innerHTML = "";
    ids.forEach(function (id) {
      var saved = all[id];
      var item = document.createElement("li");
      var button = document.createElement("button");
      button.type = "button";
      button.className = "link";
      button.setAttribute("data-resume", id);
      button.textContent = (isOver(saved) ? "See" : "Resume") + " the game of " + localTime(saved.started) + " (" + saved.level + ")";
      item.appendChild(button);
      if (saved.kept) {
        var link = document.createElement("a");
        link.href = saved.kept === "yes" ? "#" : saved.kept;
        link.className = "offline-kept";
        link.textContent = "kept with your games";
        item.appendChild(document.createTextNode(" · "));
        item.appendChild(link);
      } else if (saved.refused) {
        item.appendChild(document.createTextNode(" · not kept: " + saved.refused));
      }
      list.appendChild(item);
    });
    list.hidden = keepHidden === true || !ids.length;
  }

  async function boot() {
    say("Getting the computer players ready…");
    var began = performance.now();
    var module = await import(page.getAttribute("data-pyodide") + "pyodide.mjs");
    py = await module.loadPyodide({ indexURL: page.getAttribute("data-pyodide") });
    var zip = await (await fetch(page.getAttribute("data-bundle"))).arrayBuffer();
    py.unpackArchive(zip, "zip");
    tables = py.pyimport("games.offline").PageTable;
    page.setAttribute("data-ready", String(Math.round(performance.now() - began)));
    say("Ready: choose the computers' level and deal.");
    start.querySelector("button[type=submit]").disabled = false;
    showGames();
    sendFinished();
  }

  function show() {
    tableBox.innerHTML = table.whole();
    var root = document.getElementById("table");
    if (root) root.setAttribute("data-synced", "1");  // drawn here, so in step with the game
    if (window.htmx) htmx.process(tableBox);
    start.hidden = true;
    list.hidden = true;
    say("");
    tableBox.dispatchEvent(new CustomEvent("hearts:shown", { bubbles: true }));
  }
  function update() {
    var began = performance.now();
    var message = table.changes();
    drawing.push(Math.round((performance.now() - began) * 100) / 100);
    page.setAttribute("data-draw-ms", drawing.slice(-200).join(" "));  // read by tests.offline_bench
    if (message) document.dispatchEvent(new CustomEvent("hearts:update", { detail: message }));
  }
  async function computers() {
    if (busy) return;
    busy = true;
    try {
      while (table.computer_to_act()) {
        await wait(table.passing() ? 0 : THINKING[setting("speed")] || THINKING.normal);
        var began = performance.now();
        table.computer_move();
        thinking.push(Math.round((performance.now() - began) * 100) / 100);
        page.setAttribute("data-computer-ms", thinking.slice(-200).join(" "));  // read by tests.offline_bench
        saveTable();
        update();
      }
    } finally { busy = false; }
    if (table.over()) sendFinished();
  }

  start.addEventListener("submit", function (event) {
    event.preventDefault();
    var form = new FormData(start);
    var level = form.get("level") || "medium";
    var target = Number(form.get("target")) || 100;
    var id = "g" + Date.now().toString(36) + Math.random().toString(36).slice(2, 8);
    var seed = Math.floor(Math.random() * 2147483647);
    var t0 = performance.now();
    table = tables.new(level, seed, id, new Date().toISOString(), target);
    saveTable();
    show();
    page.setAttribute("data-dealt-ms", (performance.now() - t0).toFixed(1));  // read by tests.offline_bench
    computers();
  });

  document.addEventListener("click", function (event) {
    var resume = event.target.closest("[data-resume]");
    if (!resume || !tables) return;
    var saved = games()[resume.getAttribute("data-resume")];
    if (!saved) return;
    table = tables.open(JSON.stringify(saved));
    show();
    computers();
  });

  // The table's forms and ws-send buttons (Hint): to the Python table instead of a socket.
  function send(fields) {
    if (busy) return;
    var root = document.getElementById("table");
    if (root && fields.action !== "hint") fields.version = Number(root.getAttribute("data-version"));
    table.act(JSON.stringify(fields));
    saveTable();
    update();
    computers();
  }
  document.addEventListener("submit", function (event) {  // capture: before htmx
    var form = event.target;
    if (!table || !tableBox.contains(form)) return;
    event.preventDefault();
    event.stopPropagation();
    var data = new FormData(form, event.submitter || undefined);
    var fields = {};
    data.forEach(function (value, key) {
      if (key === "csrfmiddlewaretoken") return;
      var all = data.getAll(key);
      fields[key] = all.length > 1 ? all : value;
    });
    send(fields);
  }, true);
  document.addEventListener("click", function (event) {
    var button = event.target.closest("button[ws-send][hx-vals]");
    if (!table || !button || !tableBox.contains(button) || button.type === "submit") return;
    event.preventDefault();
    try { send(JSON.parse(button.getAttribute("hx-vals"))); } catch (e) {}
  });

  if (!("serviceWorker" in navigator)) say("This browser cannot keep the game for offline play.");
  boot().catch(function (error) {
    say("Offline play could not start here: " + error.message);
  });
})();
