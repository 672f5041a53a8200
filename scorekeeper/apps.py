from importlib import import_module

from django.apps import AppConfig


class ScorekeeperConfig(AppConfig):
    name = "scorekeeper"
    verbose_name = "Ninety-Nine Scorekeeper"
    default_auto_field = "django.db.models.BigAutoField"

    def import_models(self) -> None:
        # A club night's models and what is stored above a table live in their own modules,
        # above the sessions' (each imports the ones below, never the other way): Django
        # registers them all while loading models.
        super().import_models()
        import_module("scorekeeper.night_models")
        import_module("scorekeeper.club_models")

    def ready(self) -> None:
        # The rules package speaks through Django's translation (scorekeeper.rules.i18n).
        from django.utils import translation

        from scorekeeper.rules import i18n

        i18n.install(translation.gettext, translation.ngettext, translation.get_language)
