from django.contrib import admin
from django.urls import include, path

from hearts_site.health import healthz
from solo.views import home

urlpatterns = [
    path("", home, name="home"),
    path("healthz", healthz, name="healthz"),
    path("admin/", admin.site.urls),
    path("accounts/", include("accounts.urls")),
    path("ratings/", include("ratings.urls")),
    path("analysis/", include("analysis.urls")),
    path("live/", include("live.urls")),
    path("", include("solo.urls")),
]
