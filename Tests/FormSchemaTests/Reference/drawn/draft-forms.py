#!/usr/bin/env python3
"""The built-in forms of April–June 2021 written from their facts (facts.json, derived from the
Ministry's generator data by derive-facts.py): every text at the place the generator drew it.

Usage: draft-forms.py REFERENCE_DRAWN_DIR FORMS_DIR
Writes FORMS_DIR/<id>.json for each version below. The generator placed everything from fixed
data (sizes, blocks, its pixel grid), never from the person's values, so each position is a
number here; the reasons' short labels, their continuations and the calendar are ours.
"""
import json
import sys

METADATA = {
    "title": "COVID-19 - Déclaration de déplacement",
    "subject": "Attestation de déplacement dérogatoire",
    "keywords": "covid19 covid-19 attestation déclaration déplacement officielle gouvernement",
}
FONT_FILES = {
    "Luciole": "Luciole-Regular.ttf",
    "LucioleBold": "Luciole-Bold.ttf",
    "LucioleItalic": "Luciole-Regular-Italic.ttf",
    "LucioleBoldItalic": "Luciole-Bold-Italic.ttf",
}
PLACEHOLDERS = {
    "firstname": "firstName", "lastname": "lastName", "birthday": "birthDate", "address": "address",
    "zipcode": "zipCode", "city": "city", "datesortie": "exitDate", "heuresortie": "exitTime",
}
SHORT_LABELS = {
    "travail": "Activité professionnelle, enseignement et formation",
    "sante": "Santé (consultations et soins)",
    "famille": "Motif familial impérieux, personnes vulnérables, garde d’enfants",
    "convocation_demarches": "Convocation judiciaire ou administrative, démarches",
    "animaux": "Animaux de compagnie",
    "demenagement": "Déménagement",
    "achats_culte_culturel": "Achats, culture, culte (dans le département)",
    "sport": "Activité physique, promenade (10 km)",
    "transit": "Transferts ou transits (gares, aéroports)",
}
# The codes of earlier versions each reason carries on (a link's older codes; its own code
# carries itself).
CONTINUES = {
    "travail": ["missions"],
    "famille": ["handicap"],
    "convocation_demarches": ["judiciaire", "demarche", "convocation"],
    "achats_culte_culturel": ["achats", "culte_culturel", "courses", "achats_culturel_cultuel"],
    "transit": ["transits"],
}
# form id, facts folder, context of the facts, start (Paris), name, context in the calendar
VERSIONS = [
    ("deplacement-2021-04-07-couvre-feu", "deplacement-2021-04-07", "curfew", "2021-04-03T00:00",
     "Attestation de déplacement dérogatoire, couvre-feu (19h-6h), version du 7 avril 2021",
     ("couvre-feu", "couvre-feu, 19h-6h")),
    ("deplacement-2021-04-07-journee", "deplacement-2021-04-07", "quarantine", "2021-04-03T00:00",
     "Attestation de déplacement dérogatoire, journée (6h-19h, 10 km), version du 7 avril 2021",
     ("journee", "journée, 6h-19h")),
    ("deplacement-2021-05-04", "deplacement-2021-05-04", "curfew", "2021-05-03T00:00",
     "Attestation de déplacement dérogatoire, couvre-feu (19h-6h), version du 4 mai 2021", None),
    ("deplacement-2021-05-23", "deplacement-2021-05-23", "curfew", "2021-05-19T00:00",
     "Attestation de déplacement dérogatoire, couvre-feu (21h-6h), version du 23 mai 2021", None),
    ("deplacement-2021-06-10", "deplacement-2021-06-10", "curfew", "2021-06-09T00:00",
     "Attestation de déplacement dérogatoire, couvre-feu (23h-6h), version du 10 juin 2021", None),
]
# The curfew was lifted on 20 June 2021 at 6h: no attestation was asked any more.
END = ("deplacement-2021-06-10", "2021-06-20T06:00")
PAGE_WIDTH = 595.28


def value_of(names):
    return " ".join("{" + PLACEHOLDERS[name] + "}" for name in names)


def draft(facts, context, form_id, start, name, calendar_context):
    page = facts["contexts"][context]
    items = page["items"]
    used_fonts = []

    def font(name):
        if name not in used_fonts:
            used_fonts.append(name)
        return name

    def text(item):
        return {"text": item["text"], "x": item["x"], "y": item["y"], "size": item["size"],
                "font": font(item["font"])}

    title = text(items[0])
    legal_index = next(i for i, item in enumerate(items) if item["text"].startswith("En application"))
    legal = text(items[legal_index])
    texts, fields, reasons = [], [], []
    box = None
    for index, item in enumerate(items):
        if index in (0, legal_index):
            continue
        if item["type"] == "text":
            texts.append(text(item))
        elif item["type"] == "input":
            label = {"text": item["label"], "x": item["x"], "y": item["y"], "size": item["size"],
                     "font": font(item["font"])}
            room = PAGE_WIDTH - 20 - item["x"] - 120
            fields.append({"value": value_of(item["values"]), "afterLabel": True, "size": item["size"],
                           "font": font(item["font"]), "maxWidth": round(room if len(item["values"]) > 1 else 60, 2),
                           "label": label})
        else:
            code = item["reason"]
            box = (item["box"]["x"], item["size"], font(item["font"]))
            reason = {"code": code, "continues": CONTINUES.get(code), "shortLabel": SHORT_LABELS[code],
                      "label": item["label"].rstrip(), "y": item["y"]}
            reasons.append({key: value for key, value in reason.items() if value is not None})
    invisible = page["invisibleText"]
    last_font = items[-1]["font"]
    texts.append({"text": "QR-code contenant les informations \nde votre attestation numérique",
                  "x": invisible["x"], "y": invisible["y"], "size": invisible["size"],
                  "leading": invisible["leading"], "font": font(last_font), "color": invisible["color"]})
    texts.append({"text": "QR-code contenant les informations de votre attestation numérique",
                  "x": 50, "y": round(page["page"]["height"] - 70, 2), "size": 11, "font": font(last_font),
                  "color": "#ffffff", "page": 2})
    box_x, size, box_font = box
    document = {
        "schema": 2,
        "id": form_id,
        "name": name,
        "inForce": {"from": start},
        "page": page["page"],
        "foldPrintedValues": True,
        "metadata": METADATA,
        "fonts": [{"name": name, "file": FONT_FILES[name]} for name in FONT_FILES if name in used_fonts],
        "title": title,
        "legalText": legal,
        "texts": texts,
        "fields": fields,
        "reasons": reasons,
        "reasonLayout": {
            "box": "text", "boxX": box_x, "boxDY": 0, "boxSize": size, "boxText": "[ ]", "boxFont": box_font,
            "markX": box_x, "markSize": size, "markText": "[x]", "markFont": box_font, "markReplacesBox": True,
            "textX": reasons and items[[i["type"] for i in items].index("checkbox")]["x"],
            "textDY": 0, "textWidth": round(PAGE_WIDTH - 5 - 45.38, 2), "textSize": size,
            "textLeading": size, "textFont": box_font,
        },
        "selection": "oneOrMore",
        "qrPayload": dict(facts["qrPayload"], asciiFolding=True),
        "qrCodes": page["qrCodes"],
    }
    if form_id == END[0]:
        document["inForce"]["until"] = END[1]
    if calendar_context:
        document["inForce"].update(context=calendar_context[0], contextName=calendar_context[1])
    if page["logos"]:
        document["images"] = [{"file": logo["file"], "x": logo["x"], "y": logo["y"], "width": logo["width"],
                               "height": logo["height"]} for logo in page["logos"]]
    # Keys in the order of the other built-in forms.
    order = ["schema", "id", "name", "inForce", "page", "foldPrintedValues", "metadata", "fonts", "images",
             "title", "legalText", "texts", "fields", "reasons", "reasonLayout", "selection", "qrPayload",
             "qrCodes"]
    return {key: document[key] for key in order if key in document}


def main(reference, forms):
    for form_id, folder, context, start, name, calendar_context in VERSIONS:
        with open(f"{reference}/{folder}/facts.json") as file:
            facts = json.load(file)
        document = draft(facts, context, form_id, start, name, calendar_context)
        with open(f"{forms}/{form_id}.json", "w") as out:
            json.dump(document, out, ensure_ascii=False, indent=2)
            out.write("\n")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
