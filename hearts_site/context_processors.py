from django.urls import reverse

# The site's main navigation for signed-in players: (label, url name, shown to guests too).
NAVIGATION = [
    ("Play", "solo:new", True),
    ("Learn", "solo:learn", True),
    ("Offline", "solo:offline", True),
    ("My games", "solo:my_games", True),
    ("Live", "live:lobby", False),
    ("Leaderboard", "ratings:leaderboard", True),
    ("Plans", "accounts:pricing", False),
    ("Profile", "accounts:profile", False),
]


def navigation(request):
    return {"nav_items": [{"label": label, "url": reverse(name), "for_guests": for_guests}
                          for label, name, for_guests in NAVIGATION]}
