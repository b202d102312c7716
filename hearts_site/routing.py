"""Websocket routes of every app, gathered in one place, and an answer for any other path."""
from channels.generic.websocket import AsyncWebsocketConsumer
from django.urls import re_path

from live.consumers import CLOSE_NOT_FOUND
from live.routing import websocket_urlpatterns as live_websockets


class NoSuchSocket(AsyncWebsocketConsumer):
    """A websocket to a path no route takes (``/ws/table/abc/``): accepted only to say so and
    close with 4404, where the router alone would fail the handshake with a server error."""

    async def connect(self):
        await self.accept()
        await self.send(text_data='{"type": "error", "code": "not_found", "message": "There is nothing at this address."}')
        await self.close(code=CLOSE_NOT_FOUND)


websocket_urlpatterns: list = [*live_websockets, re_path(r"", NoSuchSocket.as_asgi())]
