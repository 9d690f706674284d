"""The PEP 517 / PEP 660 build backend of the robotscan Python package.

``pip install ./python``, ``pip install -e ./python`` and ``python -m build
--wheel ./python`` call the hooks below. They drive the project's own CMake
build for the extension (the same ``robotscan_python`` target the C++ tests
use) and pack its output into a wheel, with nothing but the standard
library: no setuptools, no ``wheel`` package, no network. Debian's
setuptools (66) needs the separate ``wheel`` package to make a wheel, which
a pyenv or venv interpreter usually lacks and cannot fetch offline; this
backend works for whichever ``python3`` runs it, given CMake, a compiler,
the libraries ``scripts/bootstrap`` installs and pybind11's headers
(Debian's are interpreter-independent).

The extension is built for the interpreter that runs the hook (a venv's
resolved to its base interpreter) in ``build/python-<tag>-<key>`` at the
repository's root, one tree per interpreter (the key hashes its path),
reused and rebuilt incrementally by later builds. ``config_settings`` may name another tree:
``--config-settings cmake-build-dir=DIR`` (pip) or ``-C cmake-build-dir=DIR``
(build), which is then only built, never reconfigured: the way to reuse a
tree that is already configured (CI's).

The version is the CMake project's (``project(robotscan VERSION ...)`` in
the top-level CMakeLists.txt, which also generates ``base/version.h``); the
metadata and the pytest plugin's entry point come from ``python/dist-info``,
the files CMake's own install uses.

No sdist: the package is the repository (its C++ libraries), so an sdist
would be the whole tree. Build a wheel from a checkout instead.
"""

import base64
import hashlib
import os
import pathlib
import re
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import zipfile

PACKAGE_DIR = pathlib.Path(__file__).resolve().parents[1]  # python/
REPO = PACKAGE_DIR.parent
NAME = "robotscan"

# What the wheel's robotscan/ holds besides the extension (python/CMakeLists.txt
# copies the same files into the build tree).
PURE_FILES = (
    "__init__.py",
    "_robotscan.pyi",
    "py.typed",
    "robotparser.py",
    "crawl.py",
    "regexguard.py",
    "pytest_plugin.py",
)


def _version():
    text = (REPO / "CMakeLists.txt").read_text(encoding="utf-8")
    match = re.search(r"project\(\s*robotscan\s+VERSION\s+([0-9][0-9.]*)", text)
    if not match:
        raise RuntimeError("no 'project(robotscan VERSION x.y.z' in CMakeLists.txt")
    return match.group(1)


def _tag():
    """The wheel tag of this interpreter: e.g. cp311-cp311-linux_x86_64."""
    implementation = {"cpython": "cp", "pypy": "pp"}.get(
        sys.implementation.name, sys.implementation.name
    )
    python = f"{implementation}{sys.version_info.major}{sys.version_info.minor}"
    soabi = sysconfig.get_config_var("SOABI") or ""
    # SOABI "cpython-311-x86_64-linux-gnu" -> ABI tag "cp311" (a debug or
    # free-threaded build adds its flags: "cpython-311d-..." -> "cp311d").
    parts = soabi.split("-")
    abi = (
        f"{implementation}{parts[1]}"
        if len(parts) > 1 and parts[0] == "cpython"
        else python
    )
    platform = sysconfig.get_platform().replace("-", "_").replace(".", "_")
    return f"{python}-{abi}-{platform}"


def _dist_info_name():
    return f"{NAME}-{_version()}.dist-info"


# The repository's licence texts, if it has any: the project has not chosen
# a licence yet (no such file), and a wheel then declares none rather than
# guessing. Once one is added, the wheel carries it and names it.
LICENSE_NAMES = ("LICENSE", "LICENSE.txt", "LICENSE.md", "COPYING", "NOTICE")


def _license_files(repo):
    """{file name: bytes} of the licence files at the repository's root."""
    return {name: (repo / name).read_bytes() for name in LICENSE_NAMES
            if (repo / name).is_file()}


def _metadata():
    template = (PACKAGE_DIR / "dist-info" / "METADATA.in").read_text(encoding="utf-8")
    text = template.replace("@PROJECT_VERSION@", _version())
    for name in _license_files(REPO):
        text += f"License-File: {name}\n"
    readme = PACKAGE_DIR / "README.md"
    if readme.exists():
        text += "Description-Content-Type: text/markdown\n\n" + readme.read_text(
            encoding="utf-8"
        )
    return text


def _wheel_file():
    return (
        "Wheel-Version: 1.0\n"
        "Generator: robotscan_build (python/build_backend)\n"
        "Root-Is-Purelib: false\n"
        f"Tag: {_tag()}\n"
    )


def _dist_info_files():
    """The dist-info directory's files but RECORD, by name."""
    files = {
        "METADATA": _metadata().encode(),
        "WHEEL": _wheel_file().encode(),
        "entry_points.txt": (PACKAGE_DIR / "dist-info" / "entry_points.txt").read_bytes(),
    }
    files.update(_license_files(REPO))
    return files


def _interpreter():
    """The interpreter the extension is built for: a venv's python resolves
    to its base interpreter, so every venv of one interpreter shares a tree
    (and a venv deleted later leaves the tree usable)."""
    return os.path.realpath(sys.executable)


def _build_dir(config_settings):
    given = (config_settings or {}).get("cmake-build-dir")
    if given:
        return pathlib.Path(given).resolve(), False
    key = hashlib.sha256(_interpreter().encode()).hexdigest()[:8]
    return REPO / "build" / f"python-{_tag()}-{key}", True


def _run(command):
    print("robotscan_build:", " ".join(str(c) for c in command), file=sys.stderr)
    subprocess.run([str(c) for c in command], check=True, stdout=sys.stderr)


def _build_extension(config_settings):
    """Builds robotscan_python; returns the built extension's path."""
    build, ours = _build_dir(config_settings)
    if ours and not (build / "CMakeCache.txt").exists():
        generator = ["-G", "Ninja"] if shutil.which("ninja") else []
        _run(
            ["cmake", "-S", REPO, "-B", build, *generator,
             "-DCMAKE_BUILD_TYPE=Release",
             f"-DROBOTSCAN_PYTHON={_interpreter()}",
             "-DROBOTSCAN_BUILD_PYTHON=ON",
             "-DROBOTSCAN_BUILD_TESTS=OFF",
             "-DROBOTSCAN_BUILD_TOOLS=OFF",
             "-DROBOTSCAN_BUILD_BENCHMARKS=OFF"]
        )
    jobs = str(os.cpu_count() or 1)
    _run(["cmake", "--build", build, "--target", "robotscan_python", "-j", jobs])
    suffix = sysconfig.get_config_var("EXT_SUFFIX") or ".so"
    built = list(build.glob(f"python/robotscan/_robotscan{suffix}"))
    if not built:
        raise RuntimeError(
            f"no _robotscan{suffix} in {build}/python/robotscan: was that tree "
            f"configured for {_interpreter()}?"
        )
    return built[0]


def _record_line(path, data):
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=")
    return f"{path},sha256={digest.decode()},{len(data)}"


def _write_wheel(wheel_directory, files):
    """Writes `files` (archive path -> bytes) and a RECORD; returns the name."""
    dist_info = _dist_info_name()
    for name, data in _dist_info_files().items():
        files[f"{dist_info}/{name}"] = data
    record = [_record_line(path, data) for path, data in files.items()]
    record.append(f"{dist_info}/RECORD,,")
    files[f"{dist_info}/RECORD"] = ("\n".join(record) + "\n").encode()
    wheel_name = f"{NAME}-{_version()}-{_tag()}.whl"
    target = pathlib.Path(wheel_directory) / wheel_name
    with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as wheel:
        for path, data in files.items():
            info = zipfile.ZipInfo(path, date_time=(2020, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            # rw-r--r--, rwxr-xr-x for the extension.
            mode = 0o755 if path.endswith((".so", ".pyd")) else 0o644
            info.external_attr = (0o100000 | mode) << 16
            wheel.writestr(info, data)
    return wheel_name


# ---- PEP 517 ----------------------------------------------------------------


def get_requires_for_build_wheel(config_settings=None):
    return []


def get_requires_for_build_editable(config_settings=None):
    return []


def _prepare_metadata(metadata_directory):
    target = pathlib.Path(metadata_directory) / _dist_info_name()
    target.mkdir(parents=True, exist_ok=True)
    for name, data in _dist_info_files().items():
        (target / name).write_bytes(data)
    return target.name


def prepare_metadata_for_build_wheel(metadata_directory, config_settings=None):
    return _prepare_metadata(metadata_directory)


def prepare_metadata_for_build_editable(metadata_directory, config_settings=None):
    return _prepare_metadata(metadata_directory)


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    extension = _build_extension(config_settings)
    files = {
        f"{NAME}/{name}": (PACKAGE_DIR / NAME / name).read_bytes()
        for name in PURE_FILES
    }
    files[f"{NAME}/{extension.name}"] = extension.read_bytes()
    return _write_wheel(wheel_directory, files)


# ---- PEP 660 ----------------------------------------------------------------


def build_editable(wheel_directory, config_settings=None, metadata_directory=None):
    """An editable install: python/robotscan itself is imported.

    The extension is copied next to the sources (python/robotscan/, ignored
    by git) and the wheel holds only a .pth naming a directory that contains
    nothing but a link to python/robotscan: edits to the .py files take
    effect at once; a C++ change needs the same command again (or
    `cmake --build build/python-<tag>-<key> --target robotscan_python` and a
    copy).
    """
    extension = _build_extension(config_settings)
    shutil.copy2(extension, PACKAGE_DIR / NAME / extension.name)
    # A directory holding only a symlink to the package, so that the .pth
    # puts no other name of python/ (src, dist-info, ...) on sys.path.
    link_root = _build_dir(None)[0].with_name(_build_dir(None)[0].name + "-editable")
    link_root.mkdir(parents=True, exist_ok=True)
    link = link_root / NAME
    if link.is_symlink() or link.exists():
        link.unlink()
    link.symlink_to(PACKAGE_DIR / NAME, target_is_directory=True)
    files = {f"__editable__.{NAME}.pth": (str(link_root) + "\n").encode()}
    return _write_wheel(wheel_directory, files)
