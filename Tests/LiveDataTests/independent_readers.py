"""What Python's own readers make of the documents a test gives marquee's LiveData.

Reads a JSON job on standard input and writes the answers as JSON:
  {"formats": [[spec, number], ...],   -> format(number, spec) with Python's str.format
   "pointers": [[document_text, pointer], ...] -> the value by json + RFC 6901, or null
   "feeds": [xml_text, ...]}           -> feedparser's entry titles (markup removed)
"""
import html
import json
import re
import sys

import feedparser


def resolve(document, pointer):
    if pointer == "":
        return [True, document]
    value = document
    for token in pointer[1:].split("/"):
        token = token.replace("~1", "/").replace("~0", "~")
        if isinstance(value, dict):
            if token not in value:
                return [False, None]
            value = value[token]
        elif isinstance(value, list):
            if not re.fullmatch(r"0|[1-9][0-9]*", token) or int(token) >= len(value):
                return [False, None]
            value = value[int(token)]
        else:
            return [False, None]
    return [True, value]


def title(entry):
    text = entry.get("title", "")
    text = html.unescape(re.sub(r"<[^>]*>", "", text))
    return " ".join(text.split())


job = json.load(sys.stdin)
answer = {
    "formats": [("{0:" + spec + "}").format(number) for spec, number in job.get("formats", [])],
    "pointers": [resolve(json.loads(text), pointer) for text, pointer in job.get("pointers", [])],
    "feeds": [[title(entry) for entry in feedparser.parse(text).entries] for text in job.get("feeds", [])],
}
json.dump(answer, sys.stdout, ensure_ascii=False)
