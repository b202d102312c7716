"""Websocket routes of live play: the table socket (solo and live tables alike)."""
from django.urls import path

from games.table.protocol import TABLE_SOCKET_ROUTE
from live.consumers import TableConsumer

websocket_urlpatterns: list = [
    path(TABLE_SOCKET_ROUTE, TableConsumer.as_asgi(), name="live-table-socket"),
]
