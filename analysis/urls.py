from django.urls import path

from analysis import views

app_name = "analysis"

urlpatterns = [
    path("table/<int:table_id>/", views.request_analysis, name="request"),
    path("table/<int:table_id>/panel/", views.panel, name="panel"),
]
