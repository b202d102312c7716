from django.urls import path

from solo import views

app_name = "solo"

# Solo play, learn to play, my games and replays.
urlpatterns = [
    path("play/new/", views.new_game, name="new"),
    path("play/now/", views.play_now, name="play_now"),
    path("learn/", views.learn_view, name="learn"),
    path("computers/", views.computers, name="computers"),
    path("my-games/", views.my_games, name="my_games"),
    path("my-stats/", views.statistics, name="stats"),
    path("table/<int:table_id>/", views.table_page, name="table"),
    path("table/<int:table_id>/fragment/", views.table_fragment, name="table_fragment"),
    path("table/<int:table_id>/act/", views.act, name="act"),
    path("table/<int:table_id>/hint/", views.hint, name="hint"),
    path("table/<int:table_id>/replay/", views.replay, name="replay"),
    path("table/<int:table_id>/abandon/", views.abandon, name="abandon"),
    path("table/<int:table_id>/delete/", views.delete, name="delete"),
    path("play-offline/", views.offline_page, name="offline"),
    path("play-offline/hearts-<str:version>.zip", views.offline_bundle, name="offline_bundle"),
    path("play-offline/games/", views.keep_offline_game, name="offline_keep"),
    path("sw.js", views.service_worker, name="service_worker"),
    path("manifest.webmanifest", views.web_manifest, name="manifest"),
]
