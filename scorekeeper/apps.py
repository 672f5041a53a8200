from django.apps import AppConfig


class ScorekeeperConfig(AppConfig):
    name = "scorekeeper"
    verbose_name = "Ninety-Nine Scorekeeper"
    default_auto_field = "django.db.models.BigAutoField"
