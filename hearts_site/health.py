"""``/healthz``: is the database answering, and does the channel layer carry a message?"""
import asyncio

from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer
from django.db import connection
from django.http import JsonResponse


def _check_database() -> None:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        cursor.fetchone()


async def _check_channel_layer() -> None:
    layer = get_channel_layer()
    channel = await layer.new_channel("healthz.")
    await layer.send(channel, {"type": "healthz.ping"})
    message = await asyncio.wait_for(layer.receive(channel), timeout=2)
    if message.get("type") != "healthz.ping":
        raise RuntimeError("channel layer returned a different message")


async def healthz(request):
    checks = {}
    try:
        await sync_to_async(_check_database)()
        checks["database"] = "ok"
    except Exception as error:  # report, don't crash: this is what monitors read
        checks["database"] = f"error: {type(error).__name__}"
    try:
        await _check_channel_layer()
        checks["channel_layer"] = "ok"
    except Exception as error:
        checks["channel_layer"] = f"error: {type(error).__name__}"
    healthy = all(value == "ok" for value in checks.values())
    return JsonResponse({"status": "ok" if healthy else "error", **checks}, status=200 if healthy else 503)
