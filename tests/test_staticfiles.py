"""Production's static files storage: the hashed names from the manifest, each looked up once."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from scorekeeper.staticfiles import StaticFilesStorage


@pytest.fixture
def storage(tmp_path: Path) -> StaticFilesStorage:
    (tmp_path / "staticfiles.json").write_text(
        json.dumps({"version": "1.1", "paths": {"css/app.css": "css/app.0123abcd.css"}})
    )
    return StaticFilesStorage(location=str(tmp_path), base_url="/static/")


def test_a_file_is_named_by_its_hash_from_the_manifest(storage: StaticFilesStorage) -> None:
    assert storage.url("css/app.css") == "/static/css/app.0123abcd.css"


def test_each_url_is_looked_up_once_per_process(storage: StaticFilesStorage) -> None:
    first = storage.url("css/app.css")
    storage.hashed_files["css/app.css"] = "css/app.ffffffff.css"  # never, while it runs
    assert storage.url("css/app.css") == first
    assert storage.url("css/app.css", force=True) == "/static/css/app.ffffffff.css"


def test_a_file_missing_from_the_manifest_is_still_an_error(storage: StaticFilesStorage) -> None:
    for _ in range(2):  # not remembered as found
        with pytest.raises(ValueError, match="Missing staticfiles manifest entry"):
            storage.url("js/nowhere.js")
