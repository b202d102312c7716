/* The offline table: solo play with no server.  Pyodide (from the site, kept by the service
   worker) runs games.table.offline: the same engine, computers and table drawing as the server, in a
   Web Worker (offline-worker.js), so that a computer's thinking never freezes the page.
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
  var worker = null, ready = false, table = null, busy = false, thinking = [], drawing = [];
  var KEEP_KEPT = 20;  // games the server kept: the newest are listed (with their link), no more

  /* One question to the worker, answered in turn. ``table`` is what the worker last said of
     the game open on the page (the game to keep, whether a computer is to act...). */
  var asked = 0, waiting = {};
  function ask(op, args) {
    return new Promise(function (done, fail) {
      asked += 1;
      waiting[asked] = { done: done, fail: fail };
      worker.postMessage({ id: asked, op: op, args: args });
    });
  }
  function answered(event) {
    var message = event.data, pending = waiting[message.id];
    if (!pending) return;
    delete waiting[message.id];
    if (message.error) pending.fail(new Error(message.error)); else pending.done(message.result);
  }

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
    store(all);
  }
  function store(all) {
    try { localStorage.setItem(STORE, JSON.stringify(all)); } catch (e) { say("This device has no room left to keep the game."); }
  }
  /* A finished game the server kept is its business now: the device keeps only what lists it
     (when, the level, the link to it), and only for the newest KEEP_KEPT of them. */
  function pruned(saved) {
    return { id: saved.id, started: saved.started, level: saved.level, kept: saved.kept, over: true };
  }
  function prune() {
    var all = games();
    var kept = Object.keys(all).filter(function (id) { return all[id].kept; })
      .sort(function (a, b) { return (all[b].started || "").localeCompare(all[a].started || ""); });
    kept.forEach(function (id, index) {
      if (index >= KEEP_KEPT) delete all[id];
      else if (all[id].game) all[id] = pruned(all[id]);
    });
    store(all);
  }
  function wait(ms) { return new Promise(function (done) { setTimeout(done, ms); }); }
  function saveTable() { keep(JSON.parse(table.saved)); }

  function isOver(saved) { return !!(saved.over || (saved.game && saved.game.state && saved.game.state.phase === "over")); }
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
      prune();
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
      var what = " the game of " + localTime(saved.started) + " (" + saved.level + ")";
      if (saved.game) {
        var button = document.createElement("button");
        button.type = "button";
        button.className = "link";
        button.setAttribute("data-resume", id);
        button.textContent = (isOver(saved) ? "See" : "Resume") + what;
        item.appendChild(button);
      } else {
        item.appendChild(document.createTextNode("You finished" + what));
      }
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
    worker = new Worker(page.getAttribute("data-worker"), { type: "module" });
    worker.onmessage = answered;
    var booted = await ask("boot", { pyodide: new URL(page.getAttribute("data-pyodide"), location.href).href,
                                     bundle: new URL(page.getAttribute("data-bundle"), location.href).href });
    ready = true;
    page.setAttribute("data-ready", String(booted.readyMs));
    offerLevels(booted.levels);
    say("Ready: choose the computers' level and deal.");
    start.querySelector("button[type=submit]").disabled = false;
    prune();
    showGames();
    sendFinished();
  }

  /* Show the levels this device plays fast enough (games.table.offline.levels_offered). */
  function offerLevels(levels) {
    start.querySelectorAll("input[name=level]").forEach(function (input) {
      var offered = levels.indexOf(input.value) >= 0;
      input.disabled = !offered;
      input.closest("label").hidden = !offered;
    });
    var note = document.getElementById("offline-expert");
    if (note) note.hidden = levels.indexOf("expert") >= 0;
  }

  function show(whole) {
    tableBox.innerHTML = whole;
    var root = document.getElementById("table");
    if (root) root.setAttribute("data-synced", "1");  // drawn here, so in step with the game
    if (window.htmx) htmx.process(tableBox);
    start.hidden = true;
    list.hidden = true;
    say("");
    tableBox.dispatchEvent(new CustomEvent("hearts:shown", { bubbles: true }));
  }
  /* The worker's answer about the game ``id``: what the page knows of the open game now. */
  function took(answer, id) {
    answer.id = id;
    table = answer;
    saveTable();
  }
  /* What the worker said after a move: the game to keep, and the table's changes to show. */
  function moved(answer) {
    took(answer, table.id);
    drawing.push(answer.drawMs);
    page.setAttribute("data-draw-ms", drawing.slice(-200).join(" "));  // read by tests.offline_bench
    if (answer.changes) document.dispatchEvent(new CustomEvent("hearts:update", { detail: answer.changes }));
  }
  /* The one loop that moves the open game on: the player's move first (one made while a
     computer was thinking waits for it, it is not lost), then the computers' until the player
     is to act. */
  var playerMove = null;
  async function moveOn() {
    if (busy) return;
    busy = true;
    try {
      for (;;) {
        if (playerMove) {
          var fields = playerMove;
          playerMove = null;
          moved(await ask("act", { fields: JSON.stringify(fields) }));
          continue;
        }
        if (!table.computerToAct) break;
        await wait(table.passing ? 0 : THINKING[setting("speed")] || THINKING.normal);
        if (playerMove) continue;
        var answer = await ask("computer");
        thinking.push(answer.thinkMs);
        page.setAttribute("data-computer-ms", thinking.slice(-200).join(" "));  // read by tests.offline_bench
        moved(answer);
      }
    } finally { busy = false; }
    if (table.over) sendFinished();
  }
  function opened(answer, id) {
    took(answer, id);
    show(answer.whole);
  }

  start.addEventListener("submit", async function (event) {
    event.preventDefault();
    if (!ready || busy) return;
    var form = new FormData(start);
    var level = form.get("level") || "medium";
    var target = Number(form.get("target")) || 100;
    var id = "g" + Date.now().toString(36) + Math.random().toString(36).slice(2, 8);
    var seed = Math.floor(Math.random() * 2147483647);
    busy = true;
    try {
      opened(await ask("new", { level: level, seed: seed, id: id, started: new Date().toISOString(), target: target }), id);
      page.setAttribute("data-dealt-ms", table.dealtMs.toFixed(1));  // read by tests.offline_bench
    } finally { busy = false; }
    moveOn();
  });

  document.addEventListener("click", async function (event) {
    var resume = event.target.closest("[data-resume]");
    if (!resume || !ready || busy) return;
    var saved = games()[resume.getAttribute("data-resume")];
    if (!saved) return;
    busy = true;
    try { opened(await ask("open", { saved: JSON.stringify(saved) }), saved.id); } finally { busy = false; }
    moveOn();
  });

  // The table's forms and ws-send buttons (Hint): to the Python table instead of a socket.
  function send(fields) {
    if (!table) return;
    var root = document.getElementById("table");
    if (root && fields.action !== "hint") fields.version = Number(root.getAttribute("data-version"));
    playerMove = fields;
    moveOn();
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
