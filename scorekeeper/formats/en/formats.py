"""English: the app's dates as they always read, "22 Nov 2026" and "22 Nov 2026, 14:05"."""

DATE_FORMAT = "j M Y"
DATETIME_FORMAT = "j M Y, H:i"
