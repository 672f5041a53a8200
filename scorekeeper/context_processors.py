from django.http import HttpRequest

THEMES = ("auto", "light", "dark")
THEME_COOKIE = "theme"


def current_theme(request: HttpRequest) -> str:
    theme = request.COOKIES.get(THEME_COOKIE, "auto")
    return theme if theme in THEMES else "auto"


def theme(request: HttpRequest) -> dict[str, str]:
    chosen = current_theme(request)
    following = THEMES[(THEMES.index(chosen) + 1) % len(THEMES)]
    return {"theme": chosen, "next_theme": following}
