"""The Chinese calendar calculated here from PyEphem's sun and moon (VSOP87 and ELP, PyPI
`ephem`), for ChineseCalendarTests: reads lines "YYYY-MM-DD YEAR MONTH LEAP DAY TERM"
(marquee's answers; LEAP 0 or 1, TERM -1 for none or 0..23 from 小寒) on standard input
and prints one line per disagreement, one per uncertain day, then "checked N".

The rules, in China's time (UTC+8): a month begins on the day of a new moon; a solar term
falls on the day the sun's apparent longitude reaches its multiple of 15 degrees; the month
that holds the winter solstice (冬至) is the eleventh; when thirteen months begin between
two such months, the first of them that holds no major term (中气) is the leap month (闰),
named after the month before it. A new moon or a term within two minutes of midnight is
too close to call from an ephemeris alone: either day is accepted there, and the day is
printed as uncertain. Before 1929 the calendars were reckoned by older methods and in
Beijing's own time, so a day there that differs from this reckoning is accepted when it is
the day the calendars of the time printed, as the Hong Kong Observatory's tables give it
(PyPI `lunardate`), and printed as historical."""
import bisect
import datetime
import math
import sys

import ephem
from lunardate import LunarDate

CHINA = 8 * ephem.hour
REFORM = datetime.date(1929, 1, 1)
MARGIN = 120 * ephem.second
DEGREES_A_DAY = 360 / 365.2422


def china_date(moment):
    """The date in China of an ephem moment, and whether it lies near midnight."""
    local = ephem.Date(moment + CHINA)
    day = local.datetime().date()
    midnight = ephem.Date(datetime.datetime(day.year, day.month, day.day))
    near = min(local - midnight, midnight + 1 - local) < MARGIN
    return day, near


def longitude(moment):
    sun = ephem.Sun()
    sun.compute(moment)
    ecliptic = ephem.Ecliptic(ephem.Equatorial(sun.g_ra, sun.g_dec, epoch=moment), epoch=moment)
    return math.degrees(ecliptic.lon)


def term_moment(year, index):
    """When term `index` (0: 小寒, at 285 degrees) of Gregorian year `year` falls."""
    target = (285 + 15 * index) % 360
    moment = ephem.Date(datetime.datetime(year, index // 2 + 1, 6 if index % 2 == 0 else 21))
    # Newton's steps on the sun's longitude, which grows 0.95 to 1.02 degrees a day: each step
    # leaves a few hundredths of the error before it, so from days away the sixth is within
    # milliseconds, far inside the two minutes either side of midnight that count as too close
    # to call.
    for _ in range(8):
        step = ((target - longitude(moment) + 180) % 360 - 180) / DEGREES_A_DAY
        moment = ephem.Date(moment + step)
        if abs(step) < 1e-7:
            break
    return moment


# The terms, by date, from 1899 to 2100 (the calendar of 1901 starts in 1899's winter).
terms = {}        # date -> (term index, near midnight)
major = []        # dates of the major terms (odd indices: 大寒, 雨水, ..., 冬至)
solstices = {}    # year -> date of its winter solstice
for year in range(1899, 2101):
    for index in range(24):
        day, near = china_date(term_moment(year, index))
        terms[day] = (index, near)
        if index % 2 == 1:
            major.append(day)
        if index == 23:
            solstices[year] = day
major.sort()

# The new moons, by date.
starts, uncertain_starts = [], set()
moment = ephem.Date(datetime.datetime(1899, 10, 1))
while moment < ephem.Date(datetime.datetime(2101, 3, 1)):
    moment = ephem.next_new_moon(moment)
    day, near = china_date(moment)
    starts.append(day)
    if near:
        uncertain_starts.add(day)
    moment = ephem.Date(moment + 1)


def month_of(day):
    """The index in `starts` of the month holding `day`."""
    return bisect.bisect_right(starts, day) - 1


# Number the months: from each eleventh month to the next.
names = {}  # month index -> (lunar year, month, leap)
for year in range(1899, 2100):
    first, last = month_of(solstices[year]), month_of(solstices[year + 1])
    leap_needed = last - first == 13
    leap_done = False
    number = 11
    lunar_year = year
    for index in range(first, last):
        if index > first:
            has_major = any(starts[index] <= d < starts[index + 1] for d in major[bisect.bisect_left(major, starts[index]):][:2])
            if leap_needed and not leap_done and not has_major:
                leap_done = True
                names[index] = (lunar_year, number, 1)
                continue
            number = number % 12 + 1
            if number == 1:
                lunar_year = year + 1
        names[index] = (lunar_year, number, 0)

checked = 0
for line in sys.stdin:
    text, year, month, leap, number, term = line.split()
    day = datetime.date.fromisoformat(text)
    index = month_of(day)
    lunar_year, lunar_month, is_leap = names[index]
    expected = (lunar_year, lunar_month, is_leap, (day - starts[index]).days + 1)
    term_here, term_near = terms.get(day, (-1, False))
    ours = (int(year), int(month), int(leap), int(number))
    close = {starts[index], starts[index + 1]} & uncertain_starts or term_near \
        or (day - datetime.timedelta(days=1)) in terms and terms[day - datetime.timedelta(days=1)][1] \
        or (day + datetime.timedelta(days=1)) in terms and terms[day + datetime.timedelta(days=1)][1]
    if ours != expected or int(term) != term_here:
        printed = LunarDate.from_solar_date(day.year, day.month, day.day)
        if day < REFORM and int(term) == term_here and ours == (printed.year, printed.month, int(printed.isLeapMonth), printed.day):
            print(f"historical {text}: marquee {ours}, here {expected}, as printed then")
        elif close:
            print(f"uncertain {text}: marquee {ours} {term}, here {expected} {term_here}")
        else:
            print(f"{text}: marquee {ours} {term}, here {expected} {term_here}")
    checked += 1
print(f"checked {checked}")
