#!/usr/bin/python3
"""Page 1 of each drawn version of April–June 2021 for the example person (example.json), drawn by
ReportLab from its facts (facts.json: every text, box and logo where the Ministry's generator drew
it, with its fonts and logos), without the QR code, which the tests read with zbarimg instead.

Usage: draw-references.py  (Debian's python3-reportlab; writes <form id>/reference.pdf here)
The tests rasterise it and our PDF with the same pdftoppm at 100 dpi and compare the pixels.
"""
import json
import os

from reportlab.lib.utils import ImageReader
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen import canvas

HERE = os.path.dirname(os.path.abspath(__file__))
FILES = os.path.join(HERE, "../../../../Sources/FormSchema/Files")
FONTS = {"Luciole": "Luciole-Regular.ttf", "LucioleBold": "Luciole-Bold.ttf",
         "LucioleItalic": "Luciole-Regular-Italic.ttf", "LucioleBoldItalic": "Luciole-Bold-Italic.ttf"}


def main():
    for name, file in FONTS.items():
        pdfmetrics.registerFont(TTFont(name, os.path.join(FILES, file)))
    with open(os.path.join(HERE, "example.json")) as f:
        example = json.load(f)
    values = dict(example["printed"])
    for form_id, attestation in example["attestations"].items():
        with open(os.path.join(HERE, attestation["facts"], "facts.json")) as f:
            page = json.load(f)["contexts"][attestation["context"]]
        date, time = attestation["exit"].split("T")
        year, month, day = date.split("-")
        values.update(datesortie=f"{day}/{month}/{year}", heuresortie=time)
        os.makedirs(os.path.join(HERE, form_id), exist_ok=True)
        out = canvas.Canvas(os.path.join(HERE, form_id, "reference.pdf"),
                            pagesize=(page["page"]["width"], page["page"]["height"]), pageCompression=1)
        out.setTitle(f"{form_id}: reference, page 1, drawn by ReportLab from facts.json")
        for logo in page["logos"]:
            out.drawImage(ImageReader(os.path.join(FILES, logo["file"])), logo["x"], logo["y"],
                          logo["width"], logo["height"], mask="auto")
        for item in page["items"]:
            out.setFont(item["font"], item["size"])
            if item["type"] == "checkbox":
                box = item["box"]
                out.drawString(box["x"], item["y"], box["chosen"] if item["reason"] in attestation["reasons"] else box["text"])
                out.drawString(item["x"], item["y"], item["label"])
            elif item["type"] == "input":
                out.drawString(item["x"], item["y"], item["label"] + "".join(" " + values[v] for v in item["values"]))
            else:
                out.drawString(item["x"], item["y"], item["text"])
        out.showPage()
        out.save()


if __name__ == "__main__":
    main()
