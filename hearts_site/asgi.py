"""ASGI entry point: HTTP through Django, websockets through Channels.

Start with ``python -m hearts_site.serve hearts_site.asgi:application`` (daphne, on uvloop).
"""
import os

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "hearts_site.settings")

from django.core.asgi import get_asgi_application  # noqa: E402

django_asgi_app = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402

from hearts_site.routing import websocket_urlpatterns  # noqa: E402

from django.conf import settings  # noqa: E402

from hearts_site.server_tuning import tune_for_server  # noqa: E402

application = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        "websocket": AllowedHostsOriginValidator(AuthMiddlewareStack(URLRouter(websocket_urlpatterns))),
    }
)

tune_for_server(settings.GC_THRESHOLDS, settings.THREAD_SWITCH_INTERVAL)  # everything above lives as long as the process

if settings.TASK_RUNNER != "eager":  # tests run tasks in their own way
    from live.server import recover_after_start  # noqa: E402

    recover_after_start()
