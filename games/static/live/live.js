/* Live table: reconnect when the server closes the table socket for a fault.
 *
 * The htmx websocket extension reconnects by itself when the connection drops (1006: the
 * server process died or restarted). When the server is up but cannot serve the table for a
 * moment (its link to Redis is down) it sends an "unavailable" notice and closes with 4503
 * (games.consumers.CLOSE_TRY_AGAIN); the extension leaves such a socket closed, so this
 * reconnects it, after growing random pauses (up to about 15 s) while the fault lasts.
 * On reconnecting, the server sends the whole table again.
 */
(function () {
  if (window.heartsLive) return;
  window.heartsLive = true;

  var TRY_AGAIN = 4503;
  var attempts = 0;
  var openedAt = 0;

  document.addEventListener("htmx:wsOpen", function () {
    openedAt = Date.now();
  });

  document.addEventListener("htmx:wsClose", function (event) {
    var detail = event.detail || {};
    if (!detail.event || detail.event.code !== TRY_AGAIN || !detail.socketWrapper) return;
    if (!event.target.isConnected) return; // the table left the page
    if (Date.now() - openedAt > 10000) attempts = 0; // it had worked for a while: a new fault
    var pause = Math.min(1000 * Math.pow(2, attempts), 15000) * (0.5 + Math.random() / 2);
    attempts += 1;
    setTimeout(function () { detail.socketWrapper.reconnect(); }, pause);
  });
})();
