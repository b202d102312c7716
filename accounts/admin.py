from django.contrib import admin
from django.contrib.auth.admin import UserAdmin

from accounts.models import User


@admin.register(User)
class HeartsUserAdmin(UserAdmin):
    fieldsets = UserAdmin.fieldsets + (("Player", {"fields": ("display_name",)}),)
    list_display = ("username", "display_name", "email", "is_staff", "date_joined", "last_login")
    search_fields = ("username", "display_name", "email")
