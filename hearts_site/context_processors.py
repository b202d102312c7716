from django.urls import NoReverseMatch, reverse

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
    items = []
    for label, name in NAVIGATION:
        try:
            items.append({"label": label, "url": reverse(name)})
        except NoReverseMatch:  # that part of the site is not installed
            continue
    return {"nav_items": items}
