from django.urls import reverse

# The site's main navigation for signed-in players: (label, url name).
NAVIGATION = [
    ("Play", "games:new"),
    ("Learn", "games:learn"),
    ("My games", "games:my_games"),
    ("Live", "live:lobby"),
    ("Leaderboard", "ratings:leaderboard"),
    ("Plans", "accounts:pricing"),
    ("Profile", "accounts:profile"),
]


def navigation(request):
    return {"nav_items": [{"label": label, "url": reverse(name)} for label, name in NAVIGATION]}
