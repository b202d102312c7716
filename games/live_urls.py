"""Live play: friend rooms and matchmaking (included under /live/)."""
app_name = "live"

urlpatterns: list = []
