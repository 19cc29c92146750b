"""Every path the project uses, derived from the package location."""

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "data"
DATAPACKAGE = DATA / "datapackage.json"
NOTEBOOKS = ROOT / "notebooks"
SITE = ROOT / "site"
