"""Websocket routes of every app, gathered in one place."""
websocket_urlpatterns: list = []

try:
    from games.routing import websocket_urlpatterns as games_websockets
except ImportError:  # the games app has no websocket routes yet
    games_websockets = []

websocket_urlpatterns += games_websockets
