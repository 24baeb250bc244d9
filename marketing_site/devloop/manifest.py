"""What the last compile of the development web directory was made from.

`<web dir>/.devloop.json` keeps, for each page group, its routes and the content files it read
(with their hashes); for the whole site, the hash of every module and of the configuration.
At the next start, the loop compiles only what changed since (nothing, usually), without
importing the app first; that is most of why `make dev` starts about as fast as an empty app.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from pathlib import Path

from marketing_site.devloop import depmap

VERSION = 2
FILE_NAME = ".devloop.json"
CONFIG_FILES = ("rxconfig.py", ".env")
LOOP_PACKAGE = f"{depmap.PACKAGE}.devloop"


def file_hash(path: Path) -> str | None:
    """A hash of the file's bytes; None when there is no such file."""
    try:
        return hashlib.blake2b(path.read_bytes(), digest_size=12).hexdigest()
    except OSError:
        return None


def module_hashes() -> dict[str, str | None]:
    """Every site module's hash, and the configuration's, by module name (or file name)."""
    hashes = {
        name: file_hash(path)
        for name, path in depmap.site_modules().items()
        if not name.startswith(LOOP_PACKAGE)  # the loop itself is no input of the pages
    }
    for name in CONFIG_FILES:
        hashes[name] = file_hash(depmap.REPOSITORY / name)
    return hashes


@dataclasses.dataclass
class Manifest:
    """The inputs of the compile on disk."""

    reflex: str
    origin: str
    modules: dict[str, str | None]
    groups: dict[str, dict] = dataclasses.field(default_factory=dict)
    import_reads: dict[str, dict[str, str | None]] = dataclasses.field(default_factory=dict)
    app_wraps: list[list] = dataclasses.field(default_factory=list)

    @classmethod
    def load(cls, web_dir: Path) -> Manifest | None:
        try:
            data = json.loads((web_dir / FILE_NAME).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        if data.get("version") != VERSION:
            return None
        return cls(
            reflex=data["reflex"],
            origin=data["origin"],
            modules=data["modules"],
            groups=data["groups"],
            import_reads=data.get("import_reads", {}),
            app_wraps=data.get("app_wraps", []),
        )

    def save(self, web_dir: Path) -> None:
        data = {"version": VERSION, **dataclasses.asdict(self)}
        target = web_dir / FILE_NAME
        temporary = target.with_suffix(".tmp")
        temporary.write_text(json.dumps(data, indent=1, sort_keys=True), encoding="utf-8")
        temporary.replace(target)

    def record_group(self, group: str, routes: list[str], reads: set[Path]) -> None:
        self.groups[group] = {
            "routes": sorted(routes),
            "reads": {str(path): file_hash(path) for path in sorted(reads)},
        }


@dataclasses.dataclass(frozen=True)
class Staleness:
    """What must be compiled again: everything (`whole`, with its reason), or some groups."""

    whole: str = ""
    groups: frozenset[str] = frozenset()

    @property
    def nothing(self) -> bool:
        return not self.whole and not self.groups


def staleness(manifest: Manifest | None, *, reflex: str, origin: str, groups: list[str]) -> Staleness:
    """Compare the manifest with the files on disk now."""
    if manifest is None:
        return Staleness(whole="no earlier compile in this web directory")
    if manifest.reflex != reflex:
        return Staleness(whole=f"Reflex changed ({manifest.reflex} to {reflex})")
    if manifest.origin != origin:
        return Staleness(whole=f"the site's address changed ({manifest.origin} to {origin})")
    if set(manifest.groups) != set(groups):
        return Staleness(whole="the route table changed")
    now = module_hashes()
    changed = {name for name in now.keys() | manifest.modules.keys() if now.get(name) != manifest.modules.get(name)}
    for module, paths in manifest.import_reads.items():
        if any(file_hash(Path(path)) != digest for path, digest in paths.items()):
            changed.add(module)
    if not changed:  # a maintainer's every morning: no module to parse
        return Staleness(groups=frozenset(_groups_whose_reads_changed(manifest)))
    graph = depmap.ImportGraph()
    frame = graph.frame_reach()
    for name in sorted(changed):
        if not depmap.is_view(name) or name in frame:
            return Staleness(whole=f"{name} changed")
    stale = {group for group in groups if graph.group_modules(group) & changed}
    return Staleness(groups=frozenset(stale | _groups_whose_reads_changed(manifest)))


def _groups_whose_reads_changed(manifest: Manifest) -> set[str]:
    return {
        group
        for group, recorded in manifest.groups.items()
        if any(file_hash(Path(path)) != digest for path, digest in recorded["reads"].items())
    }
