"""Running figures as a chart: server-rendered SVG, drawn from what the rules computed.

What a chart draws is bounded by what it shows, not by the session's length: a line goes
through at most CHART_POINTS points, its scale is worked out in whole numbers.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext as _

CHART_POINTS = 60  # the most points a chart line draws

CHART_COLOURS = ("#0072b2", "#d55e00", "#009e73", "#cc79a7", "#a16900", "#56b4e9", "#6a3d9a")
CHART_DASHES = ("", "6 3", "2 3", "8 3 2 3", "1 2", "10 4", "4 4")


@dataclass(frozen=True)
class Line:
    name: str
    points: str  # the SVG polyline's points
    colour: str
    dash: str
    last: str  # the figure the line ends on
    ends: str  # "Ann ends on 84.", what the chart's description says of the line


@dataclass(frozen=True)
class Chart:
    """What chart.html draws. Coordinates are written here as the browser reads them ("176.0",
    never the French "176,0"), and every figure as text, so the template shows them as they
    are (a number in a template goes through the active language's number formats)."""

    width: int
    height: int
    lines: tuple[Line, ...]
    y_ticks: tuple[tuple[str, str], ...]  # (y, value)
    x_ticks: tuple[tuple[str, str], ...]  # (x, deal or round)
    zero_y: str
    unit: str  # "deal" or "round"
    left: str
    right: str
    label_x: str  # where the values of the y ticks end, left of the grid
    label_y: str  # where the numbers of the x ticks sit, below it


def running_chart(series: dict[str, list[int]], unit: str, start: int = 0) -> Chart | None:
    """A line per player through their running figure after each deal or round, from `start`
    (0 points, or the tokens everyone starts with). A long session is drawn through at most
    CHART_POINTS points of each line, the last one always among them."""
    count = max((len(values) for values in series.values()), default=0)
    if count == 0:
        return None
    width, height, left, right, top, bottom = 340, 200, 40, 8, 8, 24
    step_by = -(-count // CHART_POINTS)  # draw every deal, or every 2nd, 3rd …
    drawn = sorted({*range(0, count + 1, step_by), count})
    values = [v for line in series.values() for v in line] + [start]
    step = _nice_step(max(values) - min(values))
    low = (min(values) // step) * step
    high = -(-max(values) // step) * step
    if low == high:
        high = low + step
    span_x = (width - left - right) / count
    span_y = (height - top - bottom) / (high - low)

    def x(index: int) -> float:
        return round(left + index * span_x, 1)

    def y(value: int) -> float:
        return round(height - bottom - (value - low) * span_y, 1)

    lines = []
    for position, (name, line) in enumerate(series.items()):
        figures = [start, *line]
        last = line[-1] if line else 0
        points = " ".join(f"{x(i)},{y(figures[i])}" for i in drawn)
        lines.append(
            Line(
                name=name,
                points=points,
                colour=CHART_COLOURS[position % len(CHART_COLOURS)],
                dash=CHART_DASHES[position % len(CHART_DASHES)],
                last=str(last),
                ends=_("%(name)s ends on %(last)s.") % {"name": name, "last": last},
            )
        )
    ticks = range(low, high + step, step)
    every = max(1, count // 6)
    return Chart(
        width=width,
        height=height,
        lines=tuple(lines),
        y_ticks=tuple((str(y(v)), str(v)) for v in ticks if low <= v <= high),
        x_ticks=tuple((str(x(i)), str(i)) for i in range(0, count + 1, every)),
        zero_y=str(y(0)),
        unit=unit,
        left=str(left),
        right=str(width - right),
        label_x=str(left - 4),
        label_y=str(height - bottom + 14),
    )


def _nice_step(span: int) -> int:
    """A round step (1, 2 or 5 times a power of ten) giving about four gridlines; whole
    numbers throughout, so that no total is too large for it."""
    power = 1
    while True:
        for times in (1, 2, 5):
            if times * power * 4 >= span:
                return times * power
        power *= 10
