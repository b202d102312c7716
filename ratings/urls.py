from django.urls import path

from ratings import views

app_name = "ratings"

urlpatterns = [
    path("", views.leaderboard, name="leaderboard"),
    path("player/<str:username>/", views.player, name="player"),
]
