"""Websocket routes of the games app."""
from django.urls import path

from games.consumers import TableConsumer
from games.protocol import TABLE_SOCKET_ROUTE

websocket_urlpatterns: list = [
    path(TABLE_SOCKET_ROUTE, TableConsumer.as_asgi(), name="live-table-socket"),
]
