#!/usr/bin/env python3
"""The layering as a test (README "Layout").

Reads the link graph CMake writes at generate time (build/rave_link_graph.txt: `target: links`) and
the sources, and fails when
  - a third-party library is linked by a target other than its one owner (OpenCV: engine/render's
    drawing module, which engine/render loads on first use;
    pugixml, zlib, libdeflate: engine/formats; Z3: solver; torch: neural; pybind11: python),
  - a library links a rave library its layer may not reach (engine's parts, neural, the symbolic
    `rave` executable, which must never load LibTorch), or a library is not placed in the table,
  - a source file includes a header of a library its own target does not reach,
  - an arrow between the top-level rooms (a link or an include) does not point down the house
    (FLOORS: common < grammar < engine < perception | solver | neural < evaluation | jobs < faces);
    the house is drawn on every run.

usage: layering_test.py BUILD/rave_link_graph.txt SOURCE_DIR
"""
import pathlib
import re
import sys

# Third-party link items and the one target allowed to link each (executables and tests excepted).
OWNERS = {
    "rave::opencv": "rave_engine_render_opencv",
    "pugixml::pugixml": "rave_engine_formats",
    "ZLIB::ZLIB": "rave_engine_formats",
    "PkgConfig::libdeflate": "rave_engine_formats",
    "PkgConfig::Z3": "rave_solver",
    "torch": "rave_neural",
    "pybind11::module": "rave_python",
    "SQLite::SQLite3": "rave_study",
    "PkgConfig::httplib": "rave_study",
}

# For every rave library: the rave libraries it may reach (directly or through others). A new
# library must be added here: the test fails on a library it does not know.
ENGINE_PARTS = {"rave_engine_model", "rave_engine_rules", "rave_engine_answers", "rave_engine_render",
                "rave_engine_formats"}
CHART = {"rave_engine_chart"}  # charts for reports: evaluation's and rave-train's, not the engine's
# evaluation: the shared items, export and scoring (which reads answers against export's prompts),
# and rave_evaluation, the two halves together for the faces
EVALUATION = {"rave_evaluation", "rave_evaluation_items", "rave_evaluation_export", "rave_evaluation_scoring"}
BASE = {"rave_common", "rave_grammar"}
MAY_REACH = {
    "rave_common": set(),
    "rave_grammar": {"rave_common"},
    "rave_engine_model": BASE,
    "rave_engine_rules": BASE | {"rave_engine_model"},
    "rave_engine_answers": BASE | {"rave_engine_model", "rave_engine_rules"},
    "rave_engine_render": BASE | {"rave_engine_model"},
    "rave_engine_render_opencv": BASE | {"rave_engine_model"},  # loaded by engine_render with dlopen
    "rave_engine_formats": BASE | {"rave_engine_model"},
    # charts draw through render's drawing module, the one owner of OpenCV
    "rave_engine_chart": BASE | {"rave_engine_model", "rave_engine_render"},
    "rave_engine": BASE | ENGINE_PARTS,
    "rave_perception": BASE | {"rave_engine_model", "rave_engine_render"},  # the renderer is its forward model
    # solver and perception are siblings: problems in, solutions out; pixels in, problems out
    "rave_solver": BASE | ENGINE_PARTS | {"rave_engine"},
    "rave_evaluation_items": BASE | ENGINE_PARTS | {"rave_engine", "rave_solver"},
    # export reads pictures back through perception for the probes (which questions they determine)
    "rave_evaluation_export": BASE | ENGINE_PARTS | {"rave_engine", "rave_perception", "rave_solver",
                                                     "rave_evaluation_items"},
    "rave_evaluation_scoring": BASE | ENGINE_PARTS | CHART | {"rave_engine", "rave_perception", "rave_solver",
                                                              "rave_evaluation_items", "rave_evaluation_export"},
    "rave_evaluation": BASE | ENGINE_PARTS | CHART | (EVALUATION - {"rave_evaluation"}) | {
        "rave_engine", "rave_perception", "rave_solver"},
    # jobs: the work over files and folders, between the libraries and the faces
    "rave_jobs": BASE | ENGINE_PARTS | {"rave_engine", "rave_perception", "rave_solver"},
    "rave_neural": BASE | {"rave_engine_model", "rave_engine_formats"},
    # the human study: a set's problems served to people, their answers in a database
    "rave_study": BASE | ENGINE_PARTS | CHART | EVALUATION | {"rave_engine", "rave_perception", "rave_solver",
                                                              "rave_jobs"},
    # the Python module: everything symbolic, never neural (import rave must not load LibTorch)
    "rave_python": BASE | ENGINE_PARTS | CHART | EVALUATION | {"rave_engine", "rave_perception", "rave_solver",
                                                               "rave_jobs"},
    # the command-line framework (faces/cli/), and its neural half (cli/neural/, rave-train alone); each
    # binds flags onto the options of the jobs (cli/dataset_options: jobs::DatasetSpec; cli/export_options and
    # cli/score_options: evaluation's ExportOptions and ScoreOptions), so reaches jobs and evaluation
    "rave_cli": BASE | ENGINE_PARTS | CHART | EVALUATION | {"rave_engine", "rave_perception", "rave_solver",
                                                            "rave_jobs"},
    "rave_cli_neural": BASE | ENGINE_PARTS | CHART | EVALUATION | {"rave_engine", "rave_solver", "rave_neural",
                                                                   "rave_cli", "rave_perception", "rave_jobs"},
}
# Executables that must not reach some libraries.
MUST_NOT_REACH = {
    # the symbolic CLI starts without LibTorch, and without OpenCV (the drawing module is loaded on use)
    "rave": {"rave_neural", "torch", "torch_library", "rave::opencv", "rave_engine_render_opencv"},
    "rave_python": {"rave_neural", "torch", "torch_library"},  # import rave works without torch
}

# Source folders and the target they are compiled into (longest prefix wins).
FOLDERS = {
    "common/": "rave_common",
    "grammar/": "rave_grammar",
    "engine/model/": "rave_engine_model",
    "engine/rules/": "rave_engine_rules",
    "engine/answers/": "rave_engine_answers",
    "engine/render/": "rave_engine_render",
    "engine/render/opencv/": "rave_engine_render_opencv",
    "engine/chart/": "rave_engine_chart",
    "engine/chart/opencv/": "rave_engine_render_opencv",  # compiled into the drawing module
    "engine/formats/": "rave_engine_formats",
    "engine/": "rave_engine",
    "perception/": "rave_perception",
    "solver/": "rave_solver",
    "evaluation/": "rave_evaluation_items",
    "evaluation/export/": "rave_evaluation_export",
    "evaluation/scoring/": "rave_evaluation_scoring",
    "jobs/": "rave_jobs",
    "neural/": "rave_neural",
    "faces/study/": "rave_study",
    "faces/python/": "rave_python",
    "faces/cli/": "rave_cli",
    "faces/cli/neural/": "rave_cli_neural",
}
# The faces' headers keep their names ("cli/progress.hpp", "study/server.hpp"): faces/ is on their
# include path (faces/CMakeLists.txt), so an include is looked for at the top first, then there.
INCLUDE_ROOTS = ("", "faces/")


def read_graph(path):
    graph = {}
    for line in pathlib.Path(path).read_text().splitlines():
        if not line.strip():
            continue
        target, _, links = line.partition(":")
        graph[target.strip()] = [item.strip().replace("rave::", "rave_") if item.strip().startswith("rave::")
                                 and item.strip() not in OWNERS else item.strip()
                                 for item in links.split(";") if item.strip()]
    return graph


def reach(graph, target):
    seen, todo = set(), list(graph.get(target, []))
    while todo:
        item = todo.pop()
        if item in seen:
            continue
        seen.add(item)
        todo.extend(graph.get(item, []))
    return seen


def owner_of(path):
    best = None
    for prefix, target in FOLDERS.items():
        if path.startswith(prefix) and (best is None or len(prefix) > len(best[0])):
            best = (prefix, target)
    return best[1] if best else None


def check_links(graph):
    errors = []
    for target, links in graph.items():
        for item in links:
            owner = OWNERS.get(item)
            if owner and target != owner and target.startswith("rave_"):
                errors.append(f"{target} links {item}, which only {owner} may link")
        reached = {r for r in reach(graph, target) if r.startswith("rave_")} - {"rave_options", "rave_warnings",
                                                                                 "rave_opencv"}
        if target in MAY_REACH:
            for r in sorted(reached - MAY_REACH[target]):
                errors.append(f"{target} reaches {r}, which its layer may not use")
        elif target.startswith("rave_"):
            errors.append(f"{target} is not placed in layering_test.py's MAY_REACH table")
        for r in sorted(MUST_NOT_REACH.get(target, set()) & reach(graph, target)):
            errors.append(f"{target} reaches {r}")
    return errors


# Headers a target may include without linking their library: the drawing module implements
# engine/render's declarations (the entry-point table and geometry types) and is loaded by
# engine/render, and engine/chart's chart drawing compiled into it; it uses those headers' types,
# never render's or chart's code.
HEADERS_ONLY = {"rave_engine_render_opencv": {"rave_engine_render", "rave_engine_chart"}}

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def resolve(header, root):
    """An include's path in the tree: as written, or under faces/ (INCLUDE_ROOTS)."""
    for prefix in INCLUDE_ROOTS:
        if (root / prefix / header).is_file():
            return prefix + header
    return header


def includes(source_dir):
    """(file, its target, the header as written, the header's target) for every rave include."""
    root = pathlib.Path(source_dir)
    for file in sorted(root.rglob("*")):
        if file.suffix not in (".cpp", ".hpp") or file.relative_to(root).parts[0] in ("build", ".venv"):
            continue
        rel = file.relative_to(root).as_posix()
        own = owner_of(rel)
        if own is None:
            continue
        for header in INCLUDE.findall(file.read_text(errors="replace")):
            needed = owner_of(resolve(header, root))
            if needed is not None:
                yield rel, own, header, needed


def check_includes(graph, source_dir):
    errors = []
    for rel, own, header, needed in includes(source_dir):
        allowed = reach(graph, own) | {own} | HEADERS_ONLY.get(own, set())
        if needed not in allowed:
            errors.append(f"{rel} includes {header} ({needed}), which {own} does not link")
    return errors


# The house: the top-level rooms floor by floor, bottom up (DESIGN.md "Layout"); rooms on one floor
# are siblings. An arrow (a link or an include from one room into another) may only point down.
FLOORS = [("common",), ("grammar",), ("engine",), ("perception", "solver", "neural"), ("evaluation", "jobs"),
          ("faces",)]
FLOOR_OF = {room: level for level, rooms in enumerate(FLOORS) for room in rooms}
EXECUTABLE_ROOMS = {"rave": "faces", "rave-train": "faces"}


def room_of(target):
    if target in EXECUTABLE_ROOMS:
        return EXECUTABLE_ROOMS[target]
    folders = [folder for folder, owner in FOLDERS.items() if owner == target]
    return folders[0].split("/")[0] if folders else None


def house(graph, source_dir):
    """The arrows between rooms, and the errors: rooms off the plan, arrows up or sideways."""
    arrows = {(room_of(t), room_of(item)) for t, links in graph.items() for item in links}
    arrows |= {(room_of(own), room_of(needed)) for _, own, _, needed in includes(source_dir)}
    arrows = {(a, b) for a, b in arrows if a and b and a != b}
    errors = [f"the house has no floor for room {r}" for r in sorted({r for arrow in arrows for r in arrow} - set(FLOOR_OF))]
    errors += [f"{a} (floor {FLOOR_OF[a]}) uses {b} (floor {FLOOR_OF[b]}): an arrow that does not point down"
               for a, b in sorted(arrows) if a in FLOOR_OF and b in FLOOR_OF and FLOOR_OF[b] >= FLOOR_OF[a]]
    return arrows, errors


def draw(arrows, errors):
    print("the house, top floor first (room -> the rooms it uses):")
    for level in reversed(range(len(FLOORS))):
        for room in FLOORS[level]:
            below = sorted({b for a, b in arrows if a == room}, key=lambda r: (-FLOOR_OF.get(r, -1), r))
            print(f"  {level} {room:<11} -> {' '.join(below) or '-'}")
    print(f"  arrows up or sideways: {len(errors)}")


def main():
    graph = read_graph(sys.argv[1])
    arrows, house_errors = house(graph, sys.argv[2])
    draw(arrows, house_errors)
    errors = check_links(graph) + check_includes(graph, sys.argv[2]) + house_errors
    for e in errors:
        print("layering:", e)
    if errors:
        return 1
    print(f"layering holds: {len(graph)} targets, OpenCV only in engine/render's drawing module, pugixml/zlib/libdeflate only "
          "in engine/formats, Z3 only in solver, torch only in neural, pybind11 only in python")
    return 0


if __name__ == "__main__":
    sys.exit(main())
