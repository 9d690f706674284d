"""The in-tree build backend's dist-info (python/build_backend), without a
build: name, version from the CMake project, the pytest11 entry point, and the
licence files when the repository has any (issue 26)."""

import importlib.util
import pathlib
import re

import pytest

REPO = pathlib.Path(__file__).resolve().parents[2]


@pytest.fixture
def backend():
    spec = importlib.util.spec_from_file_location(
        "robotscan_build_under_test", REPO / "python" / "build_backend" / "robotscan_build.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def project_version():
    text = (REPO / "CMakeLists.txt").read_text()
    return re.search(r"project\(\s*robotscan\s+VERSION\s+([0-9.]+)", text).group(1)


def test_metadata_names_the_cmake_project_version(backend):
    files = backend._dist_info_files()
    metadata = files["METADATA"].decode()
    assert "Name: robotscan\n" in metadata
    assert f"Version: {project_version()}\n" in metadata
    assert "@PROJECT_VERSION@" not in metadata
    assert b"[pytest11]" in files["entry_points.txt"]
    assert b"robotscan.pytest_plugin" in files["entry_points.txt"]


def test_licence_files_are_carried_and_named(backend, tmp_path, monkeypatch):
    (tmp_path / "CMakeLists.txt").write_text((REPO / "CMakeLists.txt").read_text())
    monkeypatch.setattr(backend, "REPO", tmp_path)
    without = backend._dist_info_files()
    assert "License-File" not in without["METADATA"].decode()
    assert set(without) == {"METADATA", "WHEEL", "entry_points.txt"}
    (tmp_path / "LICENSE").write_text("the licence text\n")
    (tmp_path / "NOTICE").write_text("a notice\n")
    with_licence = backend._dist_info_files()
    metadata = with_licence["METADATA"].decode()
    assert "License-File: LICENSE\n" in metadata
    assert "License-File: NOTICE\n" in metadata
    assert with_licence["LICENSE"] == b"the licence text\n"
    assert with_licence["NOTICE"] == b"a notice\n"
