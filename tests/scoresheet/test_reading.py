"""The checks made before a scoresheet's text is parsed (`reading.decode`), whatever the text.

The nesting check must say what a plain reading, one character after the other, says; and its
work must stay in proportion to the text. That work is counted, not timed: the calls into C it
makes are each one pass over the text (str and bytes methods), and their number grows by at
most three for every 24 characters of the text.
"""

import json
import sys
from collections import Counter
from types import FrameType

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from scorekeeper.rules.bounds import MAX_FILE_BYTES, MAX_NESTING
from scorekeeper.rules.common import Problem
from scorekeeper.scoresheet import InvalidScoresheet, loads_scoresheet
from scorekeeper.scoresheet.reading import _nesting, decode
from tests.scoresheet.test_trick import BASE


def plain_reading(text: str) -> tuple[int | None, bool]:
    """What `_nesting()` says, read one character after the other: how deep the brackets
    outside strings nest (None if they fail to pair up); and whether a backslash stands
    outside strings, where JSON has none."""
    depth = deepest = 0
    in_string = escaped = stray = False
    for char in text:
        if escaped:
            escaped = False
        elif in_string:
            escaped = char == "\\"
            in_string = char != '"'
        elif char == '"':
            in_string = True
        elif char == "\\":
            stray = True
        elif char in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif char in "]}" and depth > 0:
            depth -= 1
        elif char in "]}":
            return None, stray
    return (None if depth else deepest), stray


def reads_as_plain(text: str) -> bool:
    """Whether `_nesting()` says what a plain reading says; a text with a backslash outside
    strings is not JSON (the JSON reader refuses it), and the check may read it otherwise."""
    depth, stray = plain_reading(text)
    if stray:
        with pytest.raises(ValueError):
            json.loads(text)
        return True
    return _nesting(text) == depth


# Texts made to make a scan read them again and again, each `size` characters long or a few
# less: strings left open (the last one runs to the end of the text) full of escaped quotes,
# escaped new lines and brackets, a lone backslash at the end, and brackets nested deep.
SHAPES = {
    "one quote, then escaped quotes": lambda size: '"' + '\\"' * ((size - 1) // 2),
    "an open string ending in a lone backslash": lambda size: '"' + "a" * (size - 2) + "\\",
    "escaped new lines in an open string": lambda size: '"' + "\\\n" * ((size - 1) // 2),
    "new lines and escaped quotes in an open string": (
        lambda size: '"' + '\n\\"' * ((size - 1) // 3)
    ),
    "brackets and escaped quotes in an open string": (
        lambda size: '"' + '[\\"{' * ((size - 1) // 4)
    ),
    "many strings opened by an escaped quote": lambda size: '"\\"' * (size // 3),
    "an open string on every line": lambda size: '["a\\"\n' * (size // 6),
    "quotes only": lambda size: '"' * size,
    "brackets left open": lambda size: "[" * size,
    "brackets nested deep": lambda size: "[" * (size // 2) + "]" * (size // 2),
    "empty pairs": lambda size: "[]" * (size // 2),
    "peaks six levels high": lambda size: ("[" * 6 + "]" * 6) * (size // 12),
    "peaks twelve levels high": lambda size: ("[" * 12 + "]" * 12) * (size // 24),
    "strings between brackets": lambda size: '["",{}]' * (size // 7),
}


@pytest.mark.parametrize("shape", SHAPES)
def test_each_shape_is_read_as_a_plain_reading_reads_it(shape):
    assert reads_as_plain(SHAPES[shape](2_000))


def calls_into_c(text: str) -> Counter[str]:
    """The functions written in C that `_nesting(text)` calls, by name, with their count (not
    those of a garbage collection that happens to run meanwhile)."""
    calls: Counter[str] = Counter()

    def count(frame: FrameType, event: str, function: object) -> None:
        if event == "c_call" and frame.f_code is _nesting.__code__:
            calls[getattr(function, "__name__", "?")] += 1

    before = sys.getprofile()
    sys.setprofile(count)
    try:
        _nesting(text)
    finally:
        sys.setprofile(before)
    return calls


@pytest.mark.parametrize("shape", SHAPES)
def test_the_check_makes_a_few_passes_over_the_text_and_a_bounded_loop(shape):
    text = SHAPES[shape](100_000)
    calls = calls_into_c(text)
    # Each of these runs once over what it is given: no search that could go back and forth.
    assert set(calls) <= {"replace", "split", "join", "encode", "translate", "count", "findall",
                          "max", "len"}  # fmt: skip
    # The number of passes over the whole text is fixed (a count and a replace for each level
    # taken out, at most one more than a scoresheet nests); the loop over what is left runs at
    # most once for each 24 characters (a call to max and two to len each time).
    assert calls["findall"] + calls["split"] + calls["join"] + calls["encode"] == 4
    assert calls["replace"] <= 2 + MAX_NESTING + 1
    assert calls["max"] <= len(text) // 24 + 2
    assert calls["count"] + calls["len"] <= 3 * calls["max"] + 2 * (MAX_NESTING + 2)


@given(st.text(alphabet='"\\[]{}a \n', max_size=300))
@example('"\\"[')  # an open string holding a bracket
@example('"\\\n"[')  # an escaped new line, then the string closes
@example('"a\\')  # a lone backslash at the end
@example("[{]}")  # the JSON reader tells the kinds of brackets apart
@example("[[]]]][[")
@example('\\"[')  # a backslash outside strings
def test_the_check_says_what_a_plain_reading_says(text):
    assert reads_as_plain(text)


@given(st.lists(st.sampled_from(["[", "]", "{", "}", "[]", "[" * 12, "]" * 12]), max_size=80))
def test_the_check_reads_any_brackets_as_a_plain_reading_does(pieces):
    assert reads_as_plain("".join(pieces))


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(), inner, max_size=3),
    max_leaves=30,
)


def depth_of(value: object) -> int:
    if isinstance(value, list):
        return 1 + max(map(depth_of, value), default=0)
    if isinstance(value, dict):
        return 1 + max(map(depth_of, value.values()), default=0)
    return 0


@given(json_values, st.booleans())
def test_the_check_reads_the_depth_of_any_json_text(value, ascii_only):
    text = json.dumps(value, ensure_ascii=ascii_only, indent=1)
    assert _nesting(text) == depth_of(value)


# At the largest size a file may have, each shape gets the answer of the JSON reader, with its
# place, or the nesting check's. (A check that reads a string again from inside fails the
# first assertion, on a small text, instead of running for hours.)
LARGEST_ANSWERS = {
    "one quote, then escaped quotes": "(line 1, column 1): Unterminated string starting at",
    "an open string ending in a lone backslash": (
        "(line 1, column 1): Unterminated string starting at"
    ),
    "escaped new lines in an open string": "(line 1, column 2): Invalid \\escape",
    "new lines and escaped quotes in an open string": (
        "(line 1, column 2): Invalid control character at"
    ),
    "brackets and escaped quotes in an open string": (
        "(line 1, column 1): Unterminated string starting at"
    ),
    "many strings opened by an escaped quote": "(line 1, column 5): Extra data",
    "an open string on every line": "(line 1, column 6): Invalid control character at",
    "quotes only": "(line 1, column 3): Extra data",
    "brackets left open": "maximum recursion depth exceeded",
    "brackets nested deep": "Values are nested 2500000 levels deep",
    "empty pairs": "(line 1, column 3): Extra data",
    "peaks six levels high": "(line 1, column 13): Extra data",
    "peaks twelve levels high": "Values are nested 12 levels deep",
    "strings between brackets": "(line 1, column 8): Extra data",
}


@pytest.mark.parametrize("shape", SHAPES)
def test_a_file_of_the_largest_size_gets_the_readers_answer(shape):
    assert reads_as_plain(SHAPES[shape](1_000))
    text = SHAPES[shape](MAX_FILE_BYTES)
    assert MAX_FILE_BYTES - 24 <= len(text) <= MAX_FILE_BYTES
    with pytest.raises(InvalidScoresheet) as caught:
        decode(text)
    [problem] = caught.value.problems
    assert LARGEST_ANSWERS[shape] in problem.message


def test_a_file_of_the_largest_size_with_a_string_of_escaped_quotes_is_read():
    text = '{"a": "' + '\\"' * ((MAX_FILE_BYTES - 9) // 2) + '"}'
    assert len(text) <= MAX_FILE_BYTES
    assert decode(text) == {"a": '"' * ((MAX_FILE_BYTES - 9) // 2)}


def test_nesting_past_the_bound_inside_strings_does_not_count():
    text = json.dumps({"a": "[" * 100, "b": [[1]]})
    assert _nesting(text) == 3
    deep = "[" * (MAX_NESTING + 1) + "]" * (MAX_NESTING + 1)
    with pytest.raises(InvalidScoresheet, match="nested 11 levels deep"):
        decode(deep)


def test_a_file_beginning_with_a_byte_order_mark_is_read():
    text = json.dumps(BASE)
    assert loads_scoresheet("\ufeff" + text) == loads_scoresheet(text)


def test_a_byte_order_mark_anywhere_else_is_not_json():
    with pytest.raises(InvalidScoresheet) as caught:
        loads_scoresheet("\ufeff\ufeff" + json.dumps(BASE))
    assert caught.value.problems == [
        Problem(
            "",
            "This is not valid JSON (line 1, column 1): "
            "Unexpected UTF-8 BOM (decode using utf-8-sig).",
        )
    ]
