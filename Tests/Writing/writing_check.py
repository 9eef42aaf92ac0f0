#!/usr/bin/env python3
"""Real right-to-left sentences, and what other people's implementations make of them.

The sentences are the Arabic, Persian, Urdu, Hebrew and Yiddish translations that Debian
packages install (gettext catalogues under /usr/share/locale: iso-codes' country, language
and currency names, apt's messages and whatever else is there), alone and mixed with their
English original and a number, the way a shop's sign mixes a brand name and a price.

For each sentence (normalised to NFC) it prints one JSON line:
  text      the sentence
  fribidi   GNU FriBidi's visual line (the `fribidi` command: UAX #9, mirroring, Arabic
            joining with the lam-alef ligatures, marks after their base)
  pybidi    python-bidi's visual line (the Rust unicode-bidi crate: ordering only)
  reshaped  arabic-reshaper's joined letters, in logical order (lam-alef ligatures only)

Used by Tests/BitmapFontsTests/WritingSystemTests.swift; needs python-bidi and
arabic-reshaper (PyPI) and the fribidi command (Debian's libfribidi-bin).
"""
import gettext
import glob
import json
import subprocess
import sys
import unicodedata

from bidi import get_display
from arabic_reshaper import ArabicReshaper
from arabic_reshaper.ligatures import LIGATURES

LANGUAGES = ["ar", "fa", "ur", "he", "yi", "ps", "ckb", "ug", "sd"]
LIMIT = int(sys.argv[1]) if len(sys.argv) > 1 else 6000


def catalogue_pairs():
    for language in LANGUAGES:
        for path in sorted(glob.glob(f"/usr/share/locale/{language}/LC_MESSAGES/*.mo")):
            try:
                with open(path, "rb") as handle:
                    catalogue = gettext.GNUTranslations(handle)._catalog
            except Exception:
                continue
            for key, value in sorted(catalogue.items(), key=lambda item: str(item[0])):
                english = key[0] if isinstance(key, tuple) else key
                if not english or not value:
                    continue
                yield english, value


def usable(text):
    # One line, nothing the display would not show as text. A printable string has none of
    # those (isprintable refuses every C* and Z* but the space); the others are looked at
    # character by character.
    return 0 < len(text) <= 160 and (text.isprintable() or all(
        unicodedata.category(c) not in ("Cc", "Co", "Cs", "Cn") and c not in "\u2028\u2029" for c in text))


def sentences():
    seen = set()
    out = []
    for number, (english, value) in enumerate(catalogue_pairs()):
        value = " ".join(value.split())
        english = " ".join(english.split("\x04")[-1].split())
        candidates = [value]
        if number % 3 == 0:
            candidates.append(f"{value} ({english}) {number % 997}")
        if number % 5 == 0:
            candidates.append(f"{english}: {value} - {number % 89}.{number % 10}%")
        for text in candidates:
            text = unicodedata.normalize("NFC", text)
            if usable(text) and text not in seen and any(unicodedata.bidirectional(c) in ("R", "AL") for c in text):
                seen.add(text)
                out.append(text)
    # Spread the sample over every catalogue, in a fixed order.
    step = max(1, len(out) // LIMIT)
    return out[::step][:LIMIT]


def main():
    texts = sentences()
    fribidi = subprocess.run(
        ["fribidi", "--nopad", "--nobreak", "--reordernsm"], input="\n".join(texts) + "\n",
        capture_output=True, text=True, check=True).stdout.split("\n")
    # The ligatures Unicode requires (lam-alef) and no others; marks kept.
    lam_alef = {"ARABIC LIGATURE LAM WITH ALEF", "ARABIC LIGATURE LAM WITH ALEF WITH HAMZA ABOVE",
                "ARABIC LIGATURE LAM WITH ALEF WITH HAMZA BELOW", "ARABIC LIGATURE LAM WITH ALEF WITH MADDA ABOVE"}
    configuration = {name: name in lam_alef for name, _ in LIGATURES}
    configuration.update({"delete_harakat": False, "support_ligatures": True})
    reshaper = ArabicReshaper(configuration=configuration)
    for index, text in enumerate(texts):
        print(json.dumps({"text": text, "fribidi": fribidi[index], "pybidi": get_display(text),
                          "reshaped": reshaper.reshape(text)}, ensure_ascii=False))


main()
