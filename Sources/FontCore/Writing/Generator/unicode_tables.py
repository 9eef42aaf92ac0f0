#!/usr/bin/env python3
"""Writes Unicode+Tables.swift: the character data right-to-left text, Arabic joining and
normalisation need, from the Unicode Character Database.

The tables are generated, not written by hand, from the UCD files Debian's `unicode-data`
package installs in /usr/share/unicode (Unicode 15.0.0 in bookworm):

    apt-get install unicode-data
    python3 Sources/FontCore/Writing/Generator/unicode_tables.py \
        > Sources/FontCore/Writing/Unicode+Tables.swift

The suite checks the file against the script (Tests/BitmapFontsTests/UnicodeTablesTests.swift)
and the algorithms against the UCD's own conformance tests.

Each table is a sorted array literal of plain integers: the compiler lays it out as
constant data (in flash on a microcontroller) and lookups search it in place, so nothing is
parsed or copied to the heap. With the element type written out, literals of a few thousand
numbers compile in about a second.
"""
import os
import re
import sys

UCD = os.environ.get("UCD", "/usr/share/unicode")
CLASSES = ["L", "R", "AL", "EN", "ES", "ET", "AN", "CS", "NSM", "BN", "B", "S", "WS", "ON",
           "LRE", "LRO", "RLE", "RLO", "PDF", "LRI", "RLI", "FSI", "PDI"]
JOINING = ["U", "R", "L", "D", "C", "T"]
FORMS = ["isolated", "final", "initial", "medial"]


def lines(name):
    with open(os.path.join(UCD, name), encoding="utf-8") as handle:
        for line in handle:
            line = line.split("#", 1)[0].strip()
            if line:
                yield [field.strip() for field in line.split(";")]


def code_range(text):
    if ".." in text:
        first, last = text.split("..")
        return int(first, 16), int(last, 16)
    return int(text, 16), int(text, 16)


def version():
    with open(os.path.join(UCD, "DerivedAge.txt"), encoding="utf-8") as handle:
        match = re.search(r"-(\d+\.\d+\.\d+)\.txt", handle.readline())
    if match:
        return match.group(1)
    raise SystemExit("no Unicode version found in " + UCD)


def runs(values, default):
    """(start, value) wherever the value changes, over all code points."""
    out = []
    previous = None
    for code in range(0x110000):
        value = values.get(code, default)
        if value != previous:
            out.append((code, value))
            previous = value
    return out


def literal(name, kind, numbers, hexadecimal=True):
    """A Swift array literal of `numbers` named `name`, wrapped at 100 columns."""
    entries = [(f"0x{n:X}" if hexadecimal else str(n)) + "," for n in numbers]
    rows, row = [], ""
    for entry in entries:
        if len(row) + len(entry) + 1 > 94:
            rows.append(row)
            row = ""
        row += entry + " "
    rows.append(row)
    body = "\n".join("    " + r.rstrip() for r in rows if r)
    return f"  static let {name}: [{kind}] = [\n{body}\n  ]\n"


def first_of_each_key(pairs):
    """`pairs` sorted by key, the first value of a key kept."""
    table = {}
    for key, value in pairs:
        table.setdefault(key, value)
    return sorted(table.items())


def property_runs(name, values):
    """The runs of a derived property file whose values are the names in `values`."""
    table = {}
    for fields in lines(name):
        first, last = code_range(fields[0])
        for code in range(first, last + 1):
            table[code] = values.index(fields[1])
    return runs(table, 0)


def main():
    bidi_runs = property_runs("extracted/DerivedBidiClass.txt", CLASSES)

    mirrors = [(int(a, 16), int(b, 16)) for a, b in lines("BidiMirroring.txt")]
    brackets = [(int(a, 16), int(b, 16), kind) for a, b, kind in lines("BidiBrackets.txt")]

    joining_runs = property_runs("extracted/DerivedJoiningType.txt", JOINING)

    data = [line.rstrip("\n").split(";") for line in open(os.path.join(UCD, "UnicodeData.txt"), encoding="utf-8")]
    forms = {}      # base -> [isolated, final, initial, medial]
    ligatures = []  # (form, first, second, ligature): lam-alef only
    decompositions = []
    combining = {}
    for fields in data:
        code = int(fields[0], 16)
        if fields[3] != "0":
            combining[code] = int(fields[3])
        mapping = fields[5]
        if not mapping:
            continue
        tag = re.match(r"<(\w+)> (.*)", mapping)
        if tag is None:
            decompositions.append((code, [int(part, 16) for part in mapping.split()]))
            continue
        if tag.group(1) not in FORMS:
            continue
        parts = [int(part, 16) for part in tag.group(2).split()]
        form = FORMS.index(tag.group(1))
        if len(parts) == 1:
            slots = forms.setdefault(parts[0], [0, 0, 0, 0])
            # Forms-B (U+FE70...) is the set every Arabic font has: it wins over Forms-A.
            if slots[form] == 0 or code >= 0xFE70:
                slots[form] = code
        elif len(parts) == 2 and parts[0] == 0x0644 and parts[1] in (0x0622, 0x0623, 0x0625, 0x0627) and form in (0, 1):
            ligatures.append((form, parts[0], parts[1], code))

    exclusions = set()
    for fields in lines("DerivedNormalizationProps.txt"):
        if fields[1] == "Full_Composition_Exclusion":
            first, last = code_range(fields[0])
            exclusions.update(range(first, last + 1))
    combining_runs = runs(combining, 0)

    decompositions = first_of_each_key(decompositions)
    compositions = sorted(
        (parts[0] << 32 | parts[1], code) for code, parts in decompositions if len(parts) == 2 and code not in exclusions)
    mirrors = first_of_each_key(mirrors)
    brackets = first_of_each_key((a, (b, k)) for a, b, k in brackets)
    lam_alef = {}
    for form, _, alef, ligature in ligatures:
        lam_alef.setdefault(alef, [0, 0])[form] = ligature
    lam_alef = sorted(lam_alef.items())
    forms = sorted(forms.items())

    out = sys.stdout
    out.write("// Generated by Sources/FontCore/Writing/Generator/unicode_tables.py from the Unicode\n")
    out.write(f"// Character Database {version()} (Debian's unicode-data). Do not edit.\n\n")
    out.write("extension UnicodeTables {\n")
    out.write(f'  /// The Unicode version the tables come from.\n  public static let unicodeVersion = "{version()}"\n\n')
    out.write("  /// Bidi_Class (UAX #9) of every code point, in runs: where each run starts, and its class as\n")
    out.write("  /// an index into ``BidiClass``'s cases (DerivedBidiClass.txt, unassigned code points included).\n")
    out.write(literal("bidiClassStarts", "UInt32", [s for s, _ in bidi_runs]))
    out.write(literal("bidiClassValues", "UInt8", [v for _, v in bidi_runs], False) + "\n")
    out.write("  /// Bidi_Mirroring_Glyph: the code points that have one, and it (BidiMirroring.txt).\n")
    out.write(literal("mirrorCodes", "UInt32", [a for a, _ in mirrors]))
    out.write(literal("mirrorValues", "UInt32", [b for _, b in mirrors]) + "\n")
    out.write("  /// Bidi_Paired_Bracket: the brackets, their pairs, and 1 for an opening bracket or 2 for a\n")
    out.write("  /// closing one (BidiBrackets.txt).\n")
    out.write(literal("bracketCodes", "UInt32", [a for a, _ in brackets]))
    out.write(literal("bracketPairs", "UInt32", [b for _, (b, _) in brackets]))
    out.write(literal("bracketKinds", "UInt8", [1 if k == "o" else 2 for _, (_, k) in brackets], False) + "\n")
    out.write("  /// Joining_Type in runs: where each starts, and the type as an index into ``JoiningType``'s\n")
    out.write("  /// cases (DerivedJoiningType.txt: T for marks and formats not listed, U for the rest).\n")
    out.write(literal("joiningTypeStarts", "UInt32", [s for s, _ in joining_runs]))
    out.write(literal("joiningTypeValues", "UInt8", [v for _, v in joining_runs], False) + "\n")
    out.write("  /// Arabic presentation forms: the letters that have them, and four forms per letter\n")
    out.write("  /// (isolated, final, initial, medial), 0 where there is none (the <isolated>, <final>,\n")
    out.write("  /// <initial>, <medial> decompositions of UnicodeData.txt).\n")
    out.write(literal("presentationLetters", "UInt32", [base for base, _ in forms]))
    out.write(literal("presentationForms", "UInt32", [c for _, slots in forms for c in slots]) + "\n")
    out.write("  /// The lam-alef ligatures: the alefs that join lam, and two ligatures per alef (isolated,\n")
    out.write("  /// final).\n")
    out.write(literal("ligatureAlefs", "UInt32", [alef for alef, _ in lam_alef]))
    out.write(literal("ligatureForms", "UInt32", [c for _, pair in lam_alef for c in pair]) + "\n")
    out.write("  /// Canonical decompositions: the code points that have one, and two parts per code point,\n")
    out.write("  /// the second 0 for a decomposition into one (UnicodeData.txt field 5, no tag).\n")
    out.write(literal("decompositionCodes", "UInt32", [code for code, _ in decompositions]))
    out.write(literal("decompositionParts", "UInt32", [p for _, parts in decompositions for p in (parts + [0])[:2]]) + "\n")
    out.write("  /// Canonical_Combining_Class in runs: where each starts, and the class (UnicodeData.txt field 3).\n")
    out.write(literal("combiningClassStarts", "UInt32", [s for s, _ in combining_runs]))
    out.write(literal("combiningClassValues", "UInt8", [v for _, v in combining_runs], False) + "\n")
    out.write("  /// The primary composites: the pairs (first << 32 | second) of the canonical decompositions\n")
    out.write("  /// into two that Full_Composition_Exclusion does not exclude (DerivedNormalizationProps.txt),\n")
    out.write("  /// and what each pair composes to.\n")
    out.write(literal("compositionPairs", "UInt64", [pair for pair, _ in compositions]))
    out.write(literal("compositionValues", "UInt32", [code for _, code in compositions]))
    out.write("}\n")


main()
