"""Sunrise and sunset from astral (an independent implementation, from PyPI), for
SunTimesTests: reads lines "LATITUDE LONGITUDE YYYY-MM-DD" on standard input and prints
"SUNRISE SUNSET" as Unix times (or "none" for a day without one). The date is the place's
own (a zone of its longitude's mean hour), as the sign's schedule means it."""
import datetime
import sys

from astral import Observer
from astral.sun import sunrise, sunset

for line in sys.stdin:
    latitude, longitude, day = line.split()
    observer = Observer(latitude=float(latitude), longitude=float(longitude))
    date = datetime.date.fromisoformat(day)
    zone = datetime.timezone(datetime.timedelta(hours=round(float(longitude) / 15)))
    out = []
    for event in (sunrise, sunset):
        try:
            out.append("%.0f" % event(observer, date=date, tzinfo=zone).timestamp())
        except ValueError:
            out.append("none")
    print(" ".join(out))
