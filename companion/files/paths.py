"""Where things are. The data (companion/layouts/) and fonts (companion/fontfiles/) travel
inside the distribution as the packages companion.layouts and companion.fontfiles, so they
are found as those packages' folders wherever the package is installed (importlib.resources would do it too,
at a cost a scorer's start-up feels). Output goes under the folder the command runs in."""

from pathlib import Path

import companion.fontfiles
import companion.layouts

LAYOUTS = Path(next(iter(companion.layouts.__path__)))
FONTS = Path(next(iter(companion.fontfiles.__path__)))


def layout(name: str) -> Path:
    """A bundled data file, e.g. layout("covenia.toml")."""
    return LAYOUTS / name


def cache(part: str) -> Path:
    """A folder of our cache (pictures ready for a PDF, card lists read from the web):
    platformdirs' user cache folder, or TABLE_COMPANION_CACHE (e.g. in tests)."""
    import os

    override = os.environ.get("TABLE_COMPANION_CACHE")
    if override:
        return Path(override) / part
    import platformdirs

    return Path(platformdirs.user_cache_dir("table-companion")) / part


DOCS = "share/doc/table-companion"  # under an installation's data folder (pyproject data-files)


def docs() -> Path | None:
    """The folder holding README.md and docs/ (the reference): the repository's, when
    the package runs from its source, else the one a wheel installed beside it, under the
    environment's data folder or the user's (pip install --user); None without either."""
    import sysconfig

    here = Path(__file__).resolve().parents[2]
    found = [here] + [Path(sysconfig.get_path("data", scheme)) / DOCS for scheme in
                      dict.fromkeys((sysconfig.get_default_scheme(),
                                     sysconfig.get_preferred_scheme("user")))]
    return next((f for f in found if (f / "docs" / "map.md").is_file()), None)


def output() -> Path:
    """./output under the current folder: the default for builds and the phone table."""
    return Path.cwd() / "output"


def config(part: str) -> Path:
    """A folder of the user's settings (printer profiles): platformdirs' user config
    folder, or TABLE_COMPANION_CONFIG (e.g. in tests)."""
    import os

    override = os.environ.get("TABLE_COMPANION_CONFIG")
    if override:
        return Path(override) / part
    import platformdirs

    return Path(platformdirs.user_config_dir("table-companion")) / part
