"""Analyses in the admin: seen and deleted there (the task is their only writer)."""
from django.contrib import admin

from analysis.models import Analysis


@admin.register(Analysis)
class AnalysisAdmin(admin.ModelAdmin):
    list_display = ("table", "seat", "requested_by", "status", "done", "total", "accuracy", "created_at")
    list_filter = ("status",)
    search_fields = ("requested_by__username", "table__id")
    list_select_related = ("table", "requested_by")
    readonly_fields = [field.name for field in Analysis._meta.fields]
    ordering = ("-created_at",)

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    @admin.display(description="accuracy %")
    def accuracy(self, obj):
        return obj.summary.get("accuracy") if obj.summary else None
