#!/usr/bin/env python3
"""Facts of the Ministry's drawn attestations of April–June 2021, derived from its generator's
data (`src/*-pdf-data.json`) at each commit, following the arithmetic of its `src/js/pdf-util.js`
at that commit: no code of the generator is copied, only the numbers it computes.

Usage: derive-facts.py MIRROR_GIT_DIR OUTPUT_DIR
Writes OUTPUT_DIR/<form id>/facts.json: every text drawn on page 1 (text, font, size, x, y of
its baseline start), the check boxes, the logos and the QR codes' places.
"""
import json
import subprocess
import sys

PIXEL_RATIO = 1.49845450880258
PIXEL_HEIGHT = 1262
SIZE_RATIO = 0.66
A4 = (595.28, 841.89)

VERSIONS = [
    # form id, commit, layout ("absolute" until 2.5.x, "flow" from 2.6.0), contexts
    ("deplacement-2021-04-07", "e7d36bd4ee4d6636e97d10a1d64fa3cb4eba0a28", "absolute", ["curfew", "quarantine"]),
    ("deplacement-2021-05-04", "47cdae736763001a5813584e7f8f4aa0eeb2048a", "flow", ["curfew"]),
    ("deplacement-2021-05-23", "ee3d9386b59d0417d34d908ddd1f29214a5bf488", "flow", ["curfew"]),
    ("deplacement-2021-06-10", "d61fc7ce86d09a83fe7cdd2b53d89437a61483aa", "flow", ["curfew"]),
]


def show(git, commit, path):
    return subprocess.run(["git", "--git-dir", git, "show", f"{commit}:{path}"], check=True,
                          capture_output=True).stdout


def size_of(item):
    try:
        return round(float(item["size"]) * SIZE_RATIO, 2) or 10
    except (KeyError, ValueError):
        return 10


def derive(items, layout):
    width, height = A4
    drawn = []
    y = height - 75
    for item in items:
        size = size_of(item)
        font = item.get("font", "Luciole")
        x = float(item["left"]) / PIXEL_RATIO if item.get("top") else 0
        label = item.get("label", "")
        if layout == "absolute":
            y = (PIXEL_HEIGHT - float(item["top"])) / PIXEL_RATIO
        block = float(item.get("block", 1))
        kind = item["type"]
        entry = {"type": kind, "font": font, "size": size, "x": round(x, 3)}
        if kind == "checkbox":
            if layout == "flow":
                y -= block * size
            entry.update(reason=item["reason"], label=label, box={"x": round(x - 16, 3), "text": "[ ]", "chosen": "[x]"})
        else:
            if layout == "flow" and not item.get("sameline", False):
                y -= block * size + 5
            if kind == "input":
                entry.update(label=label, values=item["inputs"],
                             text=label + "".join(" {" + name + "}" for name in item["inputs"]))
            else:
                entry.update(text=label)
        entry["y"] = round(y, 3)
        drawn.append(entry)
    facts = {"page": {"width": width, "height": height}, "items": drawn}
    small = {"size": 82, "x": round(width - 107, 3)}
    if layout == "flow":
        small["y"] = round(y - 105, 3)
        facts["invisibleText"] = {"x": 470, "y": round(y, 3), "size": 6, "leading": 10, "color": "#ffffff"}
        facts["logos"] = [
            {"file": "RF.png", "x": 30, "y": round(height - 80, 3), "width": 56, "height": 50},
            {"file": "TAC.png", "x": round(width - 66, 3), "y": round(height - 80, 3), "width": 33, "height": 50},
        ]
    else:
        small["y"] = 21
        facts["invisibleText"] = {"x": 470, "y": 121, "size": 6, "leading": 10, "color": "#ffffff"}
        facts["logos"] = []
    facts["qrCodes"] = [dict(page=1, **small), {"page": 2, "x": 50, "y": round(height - 390, 3), "size": 300}]
    return facts


def main(git, output):
    import os
    for form_id, commit, layout, contexts in VERSIONS:
        os.makedirs(f"{output}/{form_id}", exist_ok=True)
        result = {
            "source": {"repository": "LAB-MI/attestation-deplacement-derogatoire-covid-19", "commit": commit},
            "font": "Luciole (Regular, Bold, Regular-Italic, Bold-Italic), embedded by pdf-lib",
            "qrPayload": {"lines": ["Cree le: {creationDate} a {creationTimeH}", "Nom: {lastName}",
                                    "Prenom: {firstName}", "Naissance: {birthDate}",
                                    "Adresse: {address} {zipCode} {city}", "Sortie: {exitDate} a {exitTime}",
                                    "Motifs: {reasons}"], "separator": ";\n", "trailingSeparator": True},
            "contexts": {},
        }
        for context in contexts:
            items = json.loads(show(git, commit, f"src/{context}-pdf-data.json"))
            result["contexts"][context] = derive(items, layout)
        with open(f"{output}/{form_id}/facts.json", "w") as out:
            json.dump(result, out, ensure_ascii=False, indent=1)
            out.write("\n")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
