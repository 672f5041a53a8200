"""The running chart's SVG: coordinates are written for the browser in every language."""

from __future__ import annotations

import re

from django.template.loader import render_to_string
from django.utils import translation

from scorekeeper.presenters.charts import running_chart
from tests.french import needs_french

NUMBER = re.compile(r"^-?\d+(\.\d+)?$")
COORDINATES = re.compile(r'\b(x|y|x1|x2|y1|y2)="([^"]*)"')


@needs_french
def test_a_french_chart_writes_its_coordinates_with_a_dot() -> None:
    # Three deals draw x at 40, 137.3, 234.7, 332: fractions, which French would write 137,3.
    with translation.override("fr"):
        chart = running_chart({"Ann": [23, 44, 30], "Ben": [-5, 6, 17]}, "deal")
        assert chart is not None
        assert any("." in x for x, _ in chart.x_ticks)
        svg = render_to_string("scorekeeper/chart.html", {"chart": chart})
    found = COORDINATES.findall(svg)
    assert len(found) > 10
    assert [value for _, value in found if not NUMBER.match(value)] == []
    assert "Ann termine à 30." in svg  # the words are French, the coordinates are not


def test_the_chart_draws_every_tick_where_the_scale_puts_it() -> None:
    chart = running_chart({"Ann": [10, 20]}, "deal")
    assert chart is not None
    svg = render_to_string("scorekeeper/chart.html", {"chart": chart})
    for y, value in chart.y_ticks:
        assert f'<text x="{chart.label_x}" y="{y}"' in svg
        assert f">{value}</text>" in svg
    for x, number in chart.x_ticks:
        tick = f'<text x="{x}" y="{chart.label_y}" class="chart-label" text-anchor="middle">'
        assert f"{tick}{number}</text>" in svg
    assert f'y1="{chart.zero_y}" y2="{chart.zero_y}" class="chart-axis"' in svg
