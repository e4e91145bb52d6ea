#!/usr/bin/env bash
# CLI contract of `rave probes` (docs/probes.md): every answer of every probe recomputed here from
# the problem's XML by Python (an independent path: none of rave's question code), the JSON Lines
# fields and the images they name, byte-identical folders for -j 1 and -j 2, --types and
# --per-type, and the one-line refusals (a folder that is not a probe folder, an unknown type).
# Usage: cli_probes_test.sh RAVE_BINARY
set -u
# shellcheck source=../cli_lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/../cli_lib.sh"

[[ $(run "$rave" generate -n 4 -o "$work/set" -s 11 --answers iraven) == 0 ]] || fail "generate: $(cat "$work/err")"
[[ $(run "$rave" probes "$work/set" -o "$work/p1" --per-type 3 -j 1) == 0 ]] || fail "probes -j 1: $(cat "$work/err")"
grep -q "^wrote [0-9]* probes of 28 problems" "$work/out" || fail "summary: $(cat "$work/out")"
[[ $(run "$rave" probes "$work/set" -o "$work/p2" --per-type 3 -j 2) == 0 ]] || fail "probes -j 2: $(cat "$work/err")"
diff -r "$work/p1" "$work/p2" >/dev/null || fail "-j 1 and -j 2 wrote different probe folders"
[[ $(run "$rave" probes "$work/set" -o "$work/p3" --panels --types same,count) == 0 ]] || fail "--panels --types"

"$py" - "$work" <<'EOF' || fail "answers recomputed from the XML"
import ast, json, os, struct, sys
import xml.etree.ElementTree as ET
work = sys.argv[1]
TYPES = ["none", "triangle", "square", "pentagon", "hexagon", "circle"]
GREYS = [255, 224, 196, 168, 140, 112, 84, 56, 28, 0]
FIELDS = ["id", "problem", "configuration", "split", "grid", "type", "asks", "choices", "answer",
          "sheet", "sheet_prompt"]

def panels_of(xml):  # [panel][component] = (all places, [(place, type, size, color)])
    out = []
    for panel in ET.parse(xml).getroot().find("Panels"):
        comps = []
        for comp in panel.iter("Component"):
            layout = comp.find("Layout")
            places = [tuple(b) for b in ast.literal_eval(layout.get("Position"))]
            ents = [(tuple(ast.literal_eval(e.get("bbox"))), int(e.get("Type")), int(e.get("Size")),
                     int(e.get("Color"))) for e in layout.iter("Entity")]
            comps.append((places, ents))
        out.append(comps)
    return out

def place_name(places, box):
    ys, xs = sorted({p[0] for p in places}), sorted({p[1] for p in places})
    def word(v, axis, names):
        i = axis.index(v)
        return names[i * 2 if len(axis) == 2 else i]
    row = word(box[0], ys, ["top", "middle", "bottom"])
    col = word(box[1], xs, ["left", "middle", "right"])
    return "center" if row == col == "middle" else row + " " + col

def value(comp, attr):  # number; position: the places; a look: the one shared value or None
    places, ents = comp
    if attr == "number": return len(ents)
    if attr == "position": return sorted(e[0] for e in ents)
    vals = {e[{"shape": 1, "size": 2, "color": 3}[attr]] for e in ents}
    return vals.pop() if len(vals) == 1 else None

def changes(comps, attr):
    if attr == "position" and changes(comps, "number"): return False
    return any(value(c, attr) != value(comps[0], attr) for c in comps)

def only_in(a, b, attr):  # candidate panels a, b differ in attr alone (docs/probes.md)
    changed = False
    for (pa, ea), (pb, eb) in zip(a, b):
        sa, sb = sorted(ea), sorted(eb)
        if [e[0] for e in sa] == [e[0] for e in sb]:
            for x, y in zip(sa, sb):
                for i, name in ((1, "shape"), (2, "size"), (3, "color")):
                    if x[i] != y[i]:
                        if name != attr: return False
                        changed = True
            continue
        if attr not in ("number", "position"): return False
        if (len(ea) != len(eb)) != (attr == "number"): return False
        if len({e[1:] for e in ea + eb}) != 1: return False
        changed = True
    return changed

def expected(j, panels):
    a, t = j["asks"], j["type"]
    ps = [panels[i] for i in a["panels"]]
    c = a.get("component")
    if t == "count": return str(sum(len(comp[1]) for comp in ps[0]))
    if t == "empty_position":
        places, ents = ps[0][c]
        empty = [p for p in places if p not in {e[0] for e in ents}]
        assert len(empty) == 1
        return place_name(places, empty[0])
    if t in ("shape", "color"):
        (_, ents), = [ps[0][c]]
        assert len(ents) == 1
        if t == "shape": return TYPES[ents[0][1]]
        grey = GREYS[ents[0][3]]
        return {255: "white", 0: "black"}.get(grey, "gray")
    if t == "same":  # position: the same places (other counts fill other places)
        x, y = (value(p[c], a["attribute"]) for p in ps)
        return "yes" if x == y and x is not None else "no"
    if t == "row_change":
        assert a["panels"] == [3 * (a["row"] - 1) + k for k in range(3)]
        got = [x for x in a["attributes"] if changes([p[c] for p in ps], x)]
        return ", ".join(got) if got else "none"
    if t == "one_difference":
        target = a["panels"][0]
        found = [k for k in range(8) if 8 + k != target and only_in(panels[target], panels[8 + k], a["attribute"])]
        assert len(found) == 1, found
        return str(found[0] + 1)
    raise AssertionError(t)

rows = [json.loads(l) for l in open(os.path.join(work, "p1", "probes.jsonl"))]
types = {}
for j in rows:
    assert list(j) == FIELDS, list(j)
    panels = panels_of(os.path.join(work, "set", j["problem"] + ".xml"))
    assert j["answer"] in j["choices"], j
    assert j["answer"] == expected(j, panels), (j["id"], j["answer"], expected(j, panels))
    assert j["sheet"] == j["problem"] + ".png" and os.path.isfile(os.path.join(work, "p1", j["sheet"]))
    assert j["sheet_prompt"].startswith("The image is a visual reasoning puzzle.")
    types.setdefault(j["type"], set()).add(j["problem"].split("/")[0])
    assert sum(1 for r in rows if r["problem"] == j["problem"] and r["type"] == j["type"]) <= 3
assert set(types) == {"count", "empty_position", "shape", "color", "same", "row_change",
                      "one_difference"}, sorted(types)
assert len(types["same"]) == 7 and len(types["row_change"]) == 7, types
yes = sum(r["answer"] == "yes" for r in rows if r["type"] == "same")
no = sum(r["answer"] == "no" for r in rows if r["type"] == "same")
assert abs(yes - no) <= 3, (yes, no)
three = [json.loads(l) for l in open(os.path.join(work, "p3", "probes.jsonl"))]
assert {r["type"] for r in three} == {"same", "count"}
for r in three:
    assert list(r) == FIELDS + ["panels", "panels_prompt"], list(r)
    assert len(r["panels"]) == 16 and all(os.path.isfile(os.path.join(work, "p3", p)) for p in r["panels"])
    assert "Images 9 to 16 are the candidates 1 to 8" in r["panels_prompt"]
print(len(rows), "probes checked")
EOF

mkdir -p "$work/mine" && echo mine >"$work/mine/notes.txt"
[[ $(run "$rave" probes "$work/set" -o "$work/mine") == 2 ]] || fail "wrote into a folder that is not a probe folder"
[[ $(cat "$work/mine/notes.txt") == mine ]] || fail "the refused folder changed"
[[ $(run "$rave" probes "$work/set" -o "$work/x" --types count,colour) == 2 ]] || fail "accepted an unknown type"
grep -q "unknown probe type 'colour'" "$work/err" || fail "unknown type message: $(cat "$work/err")"
finish "probes CLI"
