"""Websocket routes of the games app."""
from django.urls import path

from games.consumers import TableConsumer

websocket_urlpatterns: list = [
    path("ws/table/<int:table_id>/", TableConsumer.as_asgi(), name="live-table-socket"),
]
