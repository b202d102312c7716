"""Live play: friend rooms and matchmaking (included under /live/)."""
from django.urls import path

from live import views

app_name = "live"

urlpatterns = [
    path("", views.lobby, name="lobby"),
    path("room/new/", views.create_room, name="create_room"),
    path("room/<str:code>/", views.room, name="room"),
    path("room/<str:code>/seat/", views.take_seat, name="take_seat"),
    path("room/<str:code>/leave/", views.leave_seat, name="leave_seat"),
    path("room/<str:code>/computers/", views.fill_seats, name="fill_seats"),
    path("room/<str:code>/start/", views.start, name="start"),
    path("room/<str:code>/close/", views.close_room, name="close_room"),
    path("room/<str:code>/leave-game/", views.resign, name="resign"),
    path("room/<str:code>/rematch/", views.rematch, name="rematch"),
    path("queue/", views.queue, name="queue"),
    path("queue/join/", views.queue_join, name="queue_join"),
    path("queue/status/", views.queue_status, name="queue_status"),
    path("queue/cancel/", views.queue_cancel, name="queue_cancel"),
]
