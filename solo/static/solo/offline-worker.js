/* The offline table's thinking, off the page's thread: Pyodide and games.table.offline run here, so a
   Hard computer's search (up to seconds on a phone) never freezes the page. solo/offline.js asks
   by message ({id, op, args}) and gets {id, result} or {id, error}. Each answer carries what the
   page needs next (the table's changes, the game to keep, whether a computer is to act), so one
   move is one message each way. */
var py = null, tables = null, table = null;

function state(extra) {
  var answer = {
    saved: table.saved_json(), computerToAct: table.computer_to_act(), passing: table.passing(), over: table.over()
  };
  for (var key in extra) answer[key] = extra[key];
  return answer;
}

function timed(work) {
  var began = performance.now();
  var result = work();
  return { result: result, ms: Math.round((performance.now() - began) * 100) / 100 };
}

var OPS = {
  boot: async function (args) {
    var began = performance.now();
    var module = await import(args.pyodide + "pyodide.mjs");
    py = await module.loadPyodide({ indexURL: args.pyodide });
    var zip = await (await fetch(args.bundle)).arrayBuffer();
    py.unpackArchive(zip, "zip");
    var offline = py.pyimport("games.table.offline");
    tables = offline.PageTable;
    var readyMs = Math.round(performance.now() - began);
    return { readyMs: readyMs, levels: JSON.parse(offline.levels_here()) };
  },
  new: function (args) {
    var dealt = timed(function () { return tables.new(args.level, args.seed, args.id, args.started, args.target); });
    table = dealt.result;
    return state({ whole: table.whole(), dealtMs: dealt.ms });
  },
  open: function (args) {
    table = tables.open(args.saved);
    return state({ whole: table.whole() });
  },
  act: function (args) {
    table.act(args.fields);
    var drawn = timed(function () { return table.changes(); });
    return state({ changes: drawn.result, drawMs: drawn.ms });
  },
  computer: function () {
    var thought = timed(function () { return table.computer_move(); });
    var drawn = timed(function () { return table.changes(); });
    return state({ changes: drawn.result, thinkMs: thought.ms, drawMs: drawn.ms });
  }
};

self.onmessage = async function (event) {
  var message = event.data;
  try {
    self.postMessage({ id: message.id, result: await OPS[message.op](message.args || {}) });
  } catch (error) {
    self.postMessage({ id: message.id, error: String((error && error.message) || error) });
  }
};
