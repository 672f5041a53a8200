"""French: « 22 nov. 2026 » and « 22 nov. 2026, 14:05 »; numbers with a decimal comma and a
non-breaking space between thousands (Django's French formats). A date field still shows the
ISO date first, which `<input type="date">` needs, and reads the French forms too."""

DATE_FORMAT = "j N Y"
DATETIME_FORMAT = "j N Y, H:i"
DATE_INPUT_FORMATS = ["%Y-%m-%d", "%d/%m/%Y", "%d/%m/%y", "%d.%m.%Y", "%d.%m.%y"]
DATETIME_INPUT_FORMATS = [
    "%Y-%m-%d %H:%M:%S",
    "%Y-%m-%d %H:%M",
    "%d/%m/%Y %H:%M:%S",
    "%d/%m/%Y %H:%M:%S.%f",
    "%d/%m/%Y %H:%M",
    "%d.%m.%Y %H:%M:%S",
    "%d.%m.%Y %H:%M:%S.%f",
    "%d.%m.%Y %H:%M",
]
