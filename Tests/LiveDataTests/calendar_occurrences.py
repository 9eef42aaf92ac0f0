"""The occurrences of an iCalendar file by icalendar and recurring-ical-events (PyPI).

Reads {"ics": TEXT, "from": "YYYY-MM-DD", "to": "YYYY-MM-DD", "zone": TZ} on standard
input; writes [[summary, start, all_day], ...] sorted by start: a whole day's start is
its date ("2026-03-02"), a timed occurrence's its Unix time (a floating time read in ZONE).
"""
import datetime
import json
import sys
import zoneinfo

import icalendar
import recurring_ical_events

job = json.load(sys.stdin)
zone = zoneinfo.ZoneInfo(job["zone"])
calendar = icalendar.Calendar.from_ical(job["ics"])
# The window is the sign's: from local midnight to local midnight in ZONE.
start = datetime.datetime.combine(datetime.date.fromisoformat(job["from"]), datetime.time(0), zone)
end = datetime.datetime.combine(datetime.date.fromisoformat(job["to"]), datetime.time(0), zone)
found = []
for event in recurring_ical_events.of(calendar).between(start, end):
    if str(event.get("STATUS", "")).upper() == "CANCELLED":
        continue
    begin = event["DTSTART"].dt
    summary = str(event.get("SUMMARY", ""))
    if isinstance(begin, datetime.datetime):
        if begin.tzinfo is None:
            begin = begin.replace(tzinfo=zone)
        found.append([summary, int(begin.timestamp()), False])
    else:
        found.append([summary, begin.isoformat(), True])
found.sort(key=lambda item: (str(item[1]) if item[2] else "", item[1] if not item[2] else 0, item[0]))
json.dump(found, sys.stdout, ensure_ascii=False)
