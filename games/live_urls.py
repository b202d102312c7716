"""Live play: friend rooms and matchmaking (included under /live/)."""
from django.urls import path

from games import live_views

app_name = "live"

urlpatterns = [
    path("", live_views.lobby, name="lobby"),
    path("room/new/", live_views.create_room, name="create_room"),
    path("room/<str:code>/", live_views.room, name="room"),
    path("room/<str:code>/seat/", live_views.take_seat, name="take_seat"),
    path("room/<str:code>/leave/", live_views.leave_seat, name="leave_seat"),
    path("room/<str:code>/computers/", live_views.fill_seats, name="fill_seats"),
    path("room/<str:code>/start/", live_views.start, name="start"),
    path("room/<str:code>/close/", live_views.close_room, name="close_room"),
    path("room/<str:code>/leave-game/", live_views.resign, name="resign"),
    path("room/<str:code>/rematch/", live_views.rematch, name="rematch"),
    path("queue/", live_views.queue, name="queue"),
    path("queue/join/", live_views.queue_join, name="queue_join"),
    path("queue/status/", live_views.queue_status, name="queue_status"),
    path("queue/cancel/", live_views.queue_cancel, name="queue_cancel"),
]
