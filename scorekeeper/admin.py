from django.contrib import admin

from scorekeeper.models import Player


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ["name", "owner", "archived", "created"]
    list_filter = ["archived"]
    search_fields = ["name", "owner__username"]
