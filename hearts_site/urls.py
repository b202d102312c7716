from django.contrib import admin
from django.urls import include, path

from hearts_site.health import healthz

urlpatterns = [
    path("healthz", healthz, name="healthz"),
    path("admin/", admin.site.urls),
    path("accounts/", include("accounts.urls")),
    path("ratings/", include("ratings.urls")),
    path("", include("games.urls")),
]
