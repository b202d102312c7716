"""A test URLconf: the site's URLs plus a tiny live-play view behind the gate."""
from django.http import HttpResponse
from django.urls import include, path

from accounts.decorators import live_access_required


@live_access_required
def new_live_game(request):
    return HttpResponse("live table ready")


@live_access_required
async def new_live_game_async(request):
    return HttpResponse("async live table ready")


urlpatterns = [
    path("test-live/new/", new_live_game, name="new_live_game"),
    path("test-live/new-async/", new_live_game_async, name="new_live_game_async"),
    path("", include("hearts_site.urls")),
]
