#!/usr/bin/python3
"""Writes Sources/FormSchema/Fonts/standard-fonts.json: the metrics of the 14 standard PDF
fonts that FormSchema measures fixed text with (widths, and each glyph's bottom and top for
the boxes and marks of reasons), read from the AFM files of Debian's fonts-urw-base35, URW's
metric-compatible clones of Adobe's fonts.

Why a data file: FormSchema is pure Swift, without libharu, yet a form must be refused at
load time when its text runs off the page; libharu draws with Adobe's widths, which these files
repeat (RenderingTests/StandardFontMetricsTests compares the two for every character).

Needs: fonts-urw-base35, python3-fonttools (the Adobe Glyph List). Run from the repository:
    scripts/upkeep/generate-font-metrics.py
"""
import json
import os
import sys

from fontTools.agl import toUnicode

AFM_DIRECTORY = "/usr/share/fonts/type1/urw-base35"
OUTPUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "Sources", "FormSchema", "Fonts",
                      "standard-fonts.json")

# The standard font's PDF name and the URW file with its metrics.
FONTS = [
    ("Helvetica", "NimbusSans-Regular"),
    ("Helvetica-Bold", "NimbusSans-Bold"),
    ("Helvetica-Oblique", "NimbusSans-Italic"),
    ("Helvetica-BoldOblique", "NimbusSans-BoldItalic"),
    ("Times-Roman", "NimbusRoman-Regular"),
    ("Times-Bold", "NimbusRoman-Bold"),
    ("Times-Italic", "NimbusRoman-Italic"),
    ("Times-BoldItalic", "NimbusRoman-BoldItalic"),
    ("Courier", "NimbusMonoPS-Regular"),
    ("Courier-Bold", "NimbusMonoPS-Bold"),
    ("Courier-Oblique", "NimbusMonoPS-Italic"),
    ("Courier-BoldOblique", "NimbusMonoPS-BoldItalic"),
    ("Symbol", "StandardSymbolsPS"),
    ("ZapfDingbats", "D050000L"),
]
# Symbol and ZapfDingbats keep their own encoding (a character's code is the glyph's code);
# the others are written in WinAnsiEncoding (Windows-1252), as libharu writes them.
BUILT_IN_ENCODING = {"Symbol", "ZapfDingbats"}


def read_afm(path):
    """(code or None, name, width, bottom, top) for every glyph of the AFM file."""
    glyphs = []
    with open(path, encoding="latin-1") as afm:
        inside = False
        for line in afm:
            if line.startswith("StartCharMetrics"):
                inside = True
                continue
            if line.startswith("EndCharMetrics"):
                break
            if not inside:
                continue
            fields = dict()
            for part in line.strip().split(";"):
                words = part.split()
                if words:
                    fields[words[0]] = words[1:]
            code = int(fields["C"][0])
            box = [int(float(v)) for v in fields["B"]]
            glyphs.append((code if code >= 0 else None, fields["N"][0], int(float(fields["WX"][0])), box[1], box[3]))
    return glyphs


def winansi_code(name):
    text = toUnicode(name)
    if len(text) != 1:
        return None
    try:
        encoded = text.encode("cp1252")
    except UnicodeEncodeError:
        return None
    return encoded[0] if encoded[0] >= 0x20 else None


def main():
    fonts = {}
    for pdf_name, urw_name in FONTS:
        path = os.path.join(AFM_DIRECTORY, urw_name + ".afm")
        if not os.path.exists(path):
            sys.exit(f"{path} is missing: apt-get install fonts-urw-base35")
        widths, bottoms, tops = [0] * 256, [0] * 256, [0] * 256
        for code, name, width, bottom, top in read_afm(path):
            target = code if pdf_name in BUILT_IN_ENCODING else winansi_code(name)
            if target is None or not 0x20 <= target <= 0xFF or widths[target]:
                continue
            widths[target], bottoms[target], tops[target] = width, bottom, top
        # WinAnsiEncoding draws the no-break space (0xA0) and the soft hyphen (0xAD) with the
        # space and the hyphen, which the Adobe Glyph List names otherwise.
        if pdf_name not in BUILT_IN_ENCODING:
            for code, same in ((0xA0, 0x20), (0xAD, 0x2D)):
                if not widths[code]:
                    widths[code], bottoms[code], tops[code] = widths[same], bottoms[same], tops[same]
        fonts[pdf_name] = {"widths": widths, "bottoms": bottoms, "tops": tops}
    document = {
        "source": "AFM files of Debian's fonts-urw-base35, written by scripts/upkeep/generate-font-metrics.py",
        "units": "thousandths of the font size; index: the character's byte in the font's encoding (0 = no glyph)",
        "fonts": fonts,
    }
    with open(OUTPUT, "w", encoding="utf-8") as out:
        json.dump(document, out, separators=(",", ":"))
        out.write("\n")
    print(f"wrote {os.path.relpath(OUTPUT)}: {len(fonts)} fonts")


if __name__ == "__main__":
    main()
