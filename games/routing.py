"""Websocket routes of the games app."""
websocket_urlpatterns: list = []
