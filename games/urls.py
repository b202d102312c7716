from django.urls import include, path

from games import views

urlpatterns = [
    path("", views.home, name="home"),
    path("live/", include("games.live_urls")),
]
