#!/usr/bin/python3
"""Drafts a built-in form (schema 2) from a folder of ../shared/reference/forms/: positions of
the values, reasons, QR code and payload from its facts.json; every fixed text of the page with
its font, size and baseline from its blank.pdf (read with mutool, package mupdf-tools).

The blank's fonts are replaced by standard ones: Microsoft Sans Serif and Arial by Helvetica,
Liberation Serif and Times New Roman by Times; where Helvetica is wider than the blank's font,
a block's size is lowered until its lines fit their width. The draft is then read and finished
by hand (what a script cannot know: which line is the title, the legal text).

    scripts/upkeep/draft-reference-form.py ../shared/reference/forms/couvre-feu-2020-10-17 > draft.json
    scripts/upkeep/draft-reference-form.py --contexts A B > draft.json   # two contexts of one blank
"""
import json
import os
import statistics
import subprocess
import sys
import xml.etree.ElementTree as ET

HERE = os.path.dirname(os.path.abspath(__file__))
METRICS = json.load(open(os.path.join(HERE, "..", "..", "Sources", "FormSchema", "Fonts", "standard-fonts.json")))["fonts"]
FONT_MAP = {"LiberationSerif-Bold": "Times-Bold", "LiberationSerif": "Times-Roman", "TimesNewRomanPSMT": "Times-Roman",
            "Times-Roman": "Times-Roman", "MicrosoftSansSerif": "Helvetica", "ArialMT": "Helvetica",
            "Arial-BoldMT": "Helvetica-Bold", "TimesNewRomanPS-ItalicMT": "Times-Italic", "Arial-ItalicMT": "Helvetica-Oblique"}
PLACEHOLDERS = {"creation_date": "creationDate", "creation_time": "creationTimeH", "lastname": "lastName",
                "firstname": "firstName", "birthday": "birthDate", "placeofbirth": "birthPlace", "address": "address",
                "zipcode": "zipCode", "city": "city", "exit_date": "exitDate", "exit_time": "exitTime", "reasons": "reasons"}


def width(text, font, size):
    widths = METRICS[font]["widths"]
    return sum(widths[b] for b in text.encode("cp1252")) * size / 1000


def blank_lines(pdf):
    """Lines of the page: baseline, and runs (font, size, x, x1, y, text) sorted by x."""
    xml = subprocess.run(["mutool", "draw", "-F", "stext", "-o", "-", pdf], capture_output=True, check=True).stdout
    page = ET.fromstring(xml).find("page")
    height = float(page.get("height"))
    runs = []
    for font in page.iter("font"):
        chars = list(font.iter("char"))
        if not chars:
            continue
        text = "".join(c.get("c") for c in chars)
        quad = [float(v) for v in chars[-1].get("quad").split()]
        runs.append(dict(font=font.get("name").split("+")[-1], size=float(font.get("size")), text=text,
                         x=float(chars[0].get("x")), x1=quad[2], y=round(height - float(chars[0].get("y")), 2)))
    # Runs of ordinary size first, then the superscripts, each joining the line it follows.
    typical = statistics.median(r["size"] for r in runs)
    lines = []
    for run in sorted(runs, key=lambda r: (r["size"] < 0.7 * typical, -r["y"], r["x"])):
        if not run["text"].strip():
            continue
        for line in lines:
            main = line["runs"][0]
            small = run["size"] < 0.8 * main["size"]
            same = abs(line["y"] - run["y"]) < 1.0 or (small and 0 < run["y"] - line["y"] < 5)
            right = max(r["x1"] for r in line["runs"])
            if same and run["x"] > main["x"] - 1 and (abs(run["x"] - right) < 6 or small and any(
                    abs(run["x"] - r["x1"]) < 6 for r in line["runs"])):
                line["runs"].append(run)
                break
        else:
            lines.append(dict(y=run["y"], runs=[run]))
    for line in lines:
        line["runs"].sort(key=lambda r: r["x"])
        line["x"] = line["runs"][0]["x"]
        line["x1"] = max(r["x1"] for r in line["runs"])
        line["size"] = max(r["size"] for r in line["runs"])
        longest = max(line["runs"], key=lambda r: len(r["text"]))
        line["font"] = FONT_MAP.get(longest["font"], "Helvetica")
    lines.sort(key=lambda l: (-l["y"], l["x"]))
    return lines


def rich(line):
    """The line as a string, or as runs when it has superscripts or another font."""
    parts = []
    previous_end = None
    for run in line["runs"]:
        text = run["text"]
        font = FONT_MAP.get(run["font"], "Helvetica")
        ends_with_space = parts and (parts[-1].endswith(" ") if isinstance(parts[-1], str) else parts[-1]["text"].endswith(" "))
        if previous_end is not None and run["x"] - previous_end > 1.5 and not text.startswith(" ") and not ends_with_space:
            text = " " + text
        if ends_with_space and text.startswith(" "):
            text = text[1:]
        previous_end = run["x1"]
        if run["size"] < 0.8 * line["size"]:
            parts.append({"text": text.strip(), "size": round(run["size"], 2), "rise": round(line["size"] * 0.33, 1)})
        elif font != line["font"]:
            parts.append({"text": text, "font": font})
        elif parts and isinstance(parts[-1], str):
            parts[-1] += text
        else:
            parts.append(text)
    if isinstance(parts[-1], str):
        parts[-1] = parts[-1].rstrip()
    return parts


def plain(parts):
    return "".join(p if isinstance(p, str) else p["text"] for p in parts)


def join(lines_parts):
    """Lines of parts joined by \n into one text or run list."""
    out = []
    for i, parts in enumerate(lines_parts):
        if i:
            if out and isinstance(out[-1], str):
                out[-1] += "\n"
            else:
                out.append("\n")
        for p in parts:
            if isinstance(p, str) and out and isinstance(out[-1], str):
                out[-1] += p
            else:
                out.append(p)
    return out[0] if len(out) == 1 and isinstance(out[0], str) else out


def fit_size(texts, font, size, room):
    """The size, lowered by 0.1 pt steps, at which every line fits `room` points."""
    while size > 4 and max(width(t, font, size) for t in texts) > room + 0.01:
        size = round(size - 0.1, 2)
    return size


def block(lines, page_width, justify):
    first = lines[0]
    parts = [rich(l) for l in lines]
    texts = [plain(p) for p in parts]
    font = first["font"]
    size = first["size"]
    x = round(first["x"], 2)
    right = max(l["x1"] for l in lines)
    result = {"text": join(parts), "x": x, "y": first["y"]}
    centres = [(l["x"] + l["x1"]) / 2 for l in lines]
    if len(lines) > 1:
        result["leading"] = round((lines[0]["y"] - lines[-1]["y"]) / (len(lines) - 1), 2)
    if len(lines) > 1 and max(centres) - min(centres) < 3 and abs(lines[0]["x"] - lines[1]["x"]) > 3:
        room = 2 * min(statistics.mean(centres) - 20, page_width - 20 - statistics.mean(centres))
        result["x"] = round(statistics.mean(centres) - room / 2, 2)
        result["width"] = round(room, 2)
        result["align"] = "center"
        size = fit_size(texts, font, size, room)
    elif len(lines) > 1 and justify and all(abs(l["x1"] - right) < 2 for l in lines[:-1]):
        result["width"] = round(right - x, 2)
        result["align"] = "justify"
        size = fit_size(texts, font, size, right - x)
    else:
        size = fit_size(texts, font, size, page_width - 20 - x)
    result["size"] = size
    if font != "Helvetica":
        result["font"] = font
    return result


def draft(folder, contexts):
    facts = json.load(open(os.path.join(folder, "facts.json")))
    lines = blank_lines(os.path.join(folder, "blank.pdf"))
    page_width, page_height = facts["blank"]["page_size_pt"]
    justify = facts["blank"]["justified_text"]
    reasons = facts["reasons"]["items"]
    check = facts["reasons"]["check_mark"]

    # Boxes of the reasons, and the labels of the values.
    box_lines = [l for l in lines if plain(rich(l)).replace(" ", "") in ("[]", "□")]
    label_x = min(l["x"] for l in lines if l not in box_lines and l["x"] > box_lines[0]["x1"] and abs(l["y"] - box_lines[0]["y"]) < 15)
    field_lines = {}
    fields = []
    generated_texts = []
    for field in facts["fields"]:
        value = field["value"]
        for old, new in PLACEHOLDERS.items():
            value = value.replace("{" + old + "}", "{" + new + "}")
        if "{" not in value:
            # Fixed words the generator drew itself (the 2021-03-23 "(Date et heure…)" mention).
            text = {"text": value, "x": field["x"], "y": field["y"], "size": field["size"]}
            if field.get("page", 1) != 1:
                text["page"] = field["page"]
            generated_texts.append(text)
            continue
        slot = {"value": value}
        labels = [l for l in lines if abs(l["y"] - field["y"]) < 3.5 and l["x1"] <= field["x"] + 1 and l not in box_lines]
        if labels and field.get("after_blank_label"):
            label = max(labels, key=lambda l: l["x"])
            field_lines[id(label)] = True
            slot["label"] = {"text": plain(rich(label)).strip(), "x": round(label["x"], 2), "y": label["y"],
                             "size": fit_size([plain(rich(label)).strip()], "Helvetica", label["size"], field["x"] - label["x"] - 1)}
        others = [l for l in lines if abs(l["y"] - field["y"]) < 3.5 and l["x"] > field["x"] + 5]
        right = min([l["x"] - 4 for l in others] + [page_width - 69])
        slot.update({"x": field["x"], "y": field["y"], "maxWidth": round(right - field["x"], 2)})
        if isinstance(field["size"], dict):
            slot.update({"size": field["size"]["default"], "minSize": field["size"]["min"], "fitWidth": field["size"]["max_width"]})
        if field.get("page", 1) != 1:
            slot["page"] = field["page"]
        fields.append(slot)

    # Label lines of each reason: from its first line down to the next reason's.
    def first_label_line(item):
        candidates = [l for l in lines if abs(l["x"] - label_x) < 2 and l["y"] <= item["check"]["y"] + 12]
        return max(candidates, key=lambda l: l["y"])
    firsts = [first_label_line(item) for item in reasons]
    used = set(id(l) for l in box_lines) | set(field_lines)
    reason_documents = []
    label_sizes, label_gaps, text_dys, box_dys = [], [], [], []
    for index, item in enumerate(reasons):
        top = firsts[index]["y"]
        bottom = firsts[index + 1]["y"] if index + 1 < len(reasons) else -1
        own = [l for l in lines if abs(l["x"] - label_x) < 2 and bottom < l["y"] <= top]
        # A superscript cut off its line by the extraction, on the same baseline, joins it.
        for l in own:
            used.add(id(l))
        label_sizes.append(own[0]["size"])
        label_gaps += [own[i]["y"] - own[i + 1]["y"] for i in range(len(own) - 1)]
        box = min(box_lines, key=lambda l: abs(l["y"] - item["check"]["y"]))
        text_dys.append(round(top - item["check"]["y"], 2))
        box_dys.append(round(box["y"] - item["check"]["y"], 2))
        document = {"code": item["code"]}
        if item.get("number"):
            document["number"] = item["number"]
        if item.get("short_label"):
            document["shortLabel"] = item["short_label"]
        document["label"] = join([rich(l) for l in own])
        document["y"] = item["check"]["y"]
        reason_documents.append((document, own))
    text_dy = statistics.median(text_dys)
    box_is_square = plain(rich(box_lines[0])).strip() == "□"
    box_dy = statistics.median(box_dys) if not box_is_square else -5
    for (document, own), dy, bdy in zip(reason_documents, text_dys, box_dys):
        if abs(dy - text_dy) > 0.3:
            document["textDY"] = dy
        if box_is_square:
            bdy = round(bdy - 0, 2)
        if abs(bdy - box_dy) > 0.3:
            document["boxDY"] = bdy
    text_width = round(max(l["x1"] for _, own in reason_documents for l in own) - label_x, 2)
    text_size = fit_size([plain(rich(l)) for _, own in reason_documents for l in own], "Helvetica",
                         statistics.median(label_sizes), text_width)
    layout = {}
    if box_is_square:
        layout.update({"box": "square", "boxX": 72, "boxDY": box_dy, "boxSize": 18.5})
    else:
        layout.update({"box": "text", "boxX": round(box_lines[0]["x"], 2), "boxDY": box_dy, "boxSize": box_lines[0]["size"],
                       "boxText": "[ ]", "boxFont": "Times-Roman"})
    layout.update({"markX": check["x"], "markSize": check["size"], "textX": round(label_x, 2), "textDY": text_dy,
                   "textWidth": text_width, "textSize": text_size, "textLeading": round(statistics.median(label_gaps), 2)})
    if justify:
        layout["textAlign"] = "justify"

    # Every other line: title, legal text, texts, in blocks of consecutive lines.
    rest = [l for l in lines if id(l) not in used]
    blocks = []
    for line in rest:
        if blocks:
            last = blocks[-1][-1]
            same_edge = abs(line["x"] - last["x"]) < 3 or abs((line["x"] + line["x1"]) / 2 - (last["x"] + last["x1"]) / 2) < 3
            if (same_edge and line["font"] == last["font"] and abs(line["size"] - last["size"]) < 0.3
                    and 0 < last["y"] - line["y"] < 1.7 * line["size"] and (len(blocks[-1]) < 2 or abs(
                        (blocks[-1][-2]["y"] - last["y"]) - (last["y"] - line["y"])) < 1.5)):
                blocks[-1].append(line)
                continue
        blocks.append([line])
    documents = [block(b, page_width, justify) for b in blocks]
    for document in documents:
        if plain(document["text"] if isinstance(document["text"], list) else [document["text"]]).startswith("MOTIFS SUPPLEMENTAIRES"):
            document["font"] = "Helvetica-Bold"

    qr = facts["qr"]
    payload = qr["payload"]
    lines_out = []
    for line in payload["lines"]:
        for old, new in PLACEHOLDERS.items():
            line = line.replace("{" + old + "}", "{" + new + "}")
        lines_out.append(line)
    texts = documents[2:] + generated_texts
    for invisible in qr.get("invisible_texts") or []:
        text = "\n".join(invisible.get("lines") or [invisible["text"]])
        document = {"text": text, "x": invisible["x"], "y": invisible["y"], "size": invisible["size"], "color": "#ffffff"}
        if "line_height" in invisible:
            document["leading"] = invisible["line_height"]
        if invisible["page"] == 2:
            document["page"] = 2
        texts.append(document)
    metadata = facts["metadata"]
    form = {
        "schema": 2,
        "id": facts["form_id"],
        "name": "",
        "page": {"width": page_width, "height": page_height},
        "secondPage": {"width": qr["big"]["page_size"][0], "height": qr["big"]["page_size"][1]},
        "metadata": {"title": metadata["title"], "subject": metadata["subject"], "keywords": " ".join(metadata["keywords"])},
        "title": documents[0],
        "legalText": documents[1],
        "texts": texts,
        "fields": fields,
        "reasons": [d for d, _ in reason_documents],
        "reasonLayout": layout,
        "selection": "exactlyOne" if facts["reasons"]["selection"] == "exactly_one" else "oneOrMore",
        "qrPayload": {"lines": lines_out, "separator": payload["separator"], "trailingSeparator": payload["trailing_separator"],
                      "asciiFolding": payload["values_ascii_folded"]},
        "qrCodes": [{"page": 1, "x": qr["page1"]["x"], "y": qr["page1"]["y"], "size": qr["page1"]["width"]},
                    {"page": 2, "x": qr["big"]["x"], "y": qr["big"]["y"], "size": qr["big"]["width"]}],
    }
    if contexts:
        form["contexts"] = []
        for other in contexts:
            other_facts = json.load(open(os.path.join(other, "facts.json")))
            context = other_facts["context"]
            form["contexts"].append({"id": other_facts["form_id"].split("-", 4)[-1] if False else "", "name": context["button"],
                                     "reasons": context["offered"]})
    return form


def main():
    args = sys.argv[1:]
    contexts = []
    if args and args[0] == "--contexts":
        contexts = args[1:]
        args = [args[1]]
    print(json.dumps(draft(args[0], contexts), ensure_ascii=False, indent=2))


if __name__ == "__main__":
    main()
