"""Writes GTFS feeds for marquee's tests with other people's writers.

  gtfs_feeds.py static OUT.zip     Google's sample feed (the GTFS reference's example,
                                   developers.google.com/transit/gtfs/examples), its
                                   calendars stretched to cover today, zipped by zipfile.
  gtfs_feeds.py realtime OUT.pb    reads a JSON list of trip updates on standard input and
                                   writes them as a FeedMessage with Google's
                                   gtfs-realtime-bindings.
"""
import json
import sys
import zipfile

SAMPLE = {
    "agency.txt": "agency_id,agency_name,agency_url,agency_timezone\nDTA,Demo Transit Authority,http://google.com,America/Los_Angeles\n",
    "stops.txt": (
        "stop_id,stop_name,stop_desc,stop_lat,stop_lon,zone_id,stop_url\n"
        "FUR_CREEK_RES,Furnace Creek Resort (Demo),,36.425288,-117.133162,,\n"
        "BEATTY_AIRPORT,Nye County Airport (Demo),,36.868446,-116.784582,,\n"
        "BULLFROG,Bullfrog (Demo),,36.88108,-116.81797,,\n"
        "STAGECOACH,Stagecoach Hotel & Casino (Demo),,36.915682,-116.751677,,\n"
        "NADAV,North Ave / D Ave N (Demo),,36.914893,-116.76821,,\n"
        "NANAA,North Ave / N A Ave (Demo),,36.914944,-116.761472,,\n"
        "DADAN,Doing Ave / D Ave N (Demo),,36.909489,-116.768242,,\n"
        "EMSI,E Main St / S Irving St (Demo),,36.905697,-116.76218,,\n"
        "AMV,Amargosa Valley (Demo),,36.641496,-116.40094,,\n"
    ),
    "routes.txt": (
        "route_id,agency_id,route_short_name,route_long_name,route_desc,route_type,route_url,route_color,route_text_color\n"
        "AB,DTA,10,Airport - Bullfrog,,3,,,\n"
        "BFC,DTA,20,Bullfrog - Furnace Creek Resort,,3,,,\n"
        "STBA,DTA,30,Stagecoach - Airport Shuttle,,3,,,\n"
        "CITY,DTA,40,City,,3,,,\n"
        "AAMV,DTA,50,Airport - Amargosa Valley,,3,,,\n"
    ),
    "trips.txt": (
        "route_id,service_id,trip_id,trip_headsign,direction_id,block_id,shape_id\n"
        "AB,FULLW,AB1,to Bullfrog,0,1,\n"
        "AB,FULLW,AB2,to Airport,1,2,\n"
        "STBA,FULLW,STBA,Shuttle,,,\n"
        "CITY,FULLW,CITY1,,0,,\n"
        "CITY,FULLW,CITY2,,1,,\n"
        "BFC,FULLW,BFC1,to Furnace Creek Resort,0,1,\n"
        "BFC,FULLW,BFC2,to Bullfrog,1,2,\n"
        "AAMV,WE,AAMV1,to Amargosa Valley,0,,\n"
        "AAMV,WE,AAMV2,to Airport,1,,\n"
        "AAMV,WE,AAMV3,to Amargosa Valley,0,,\n"
        "AAMV,WE,AAMV4,to Airport,1,,\n"
    ),
    "stop_times.txt": (
        "trip_id,arrival_time,departure_time,stop_id,stop_sequence,stop_headsign,pickup_type,drop_off_time,shape_dist_traveled\n"
        "STBA,6:00:00,6:00:00,STAGECOACH,1,,,,\n"
        "STBA,6:20:00,6:20:00,BEATTY_AIRPORT,2,,,,\n"
        "CITY1,6:00:00,6:00:00,STAGECOACH,1,,,,\n"
        "CITY1,6:05:00,6:07:00,NANAA,2,,,,\n"
        "CITY1,6:12:00,6:14:00,NADAV,3,,,,\n"
        "CITY1,6:19:00,6:21:00,DADAN,4,,,,\n"
        "CITY1,6:26:00,6:28:00,EMSI,5,,,,\n"
        "CITY2,6:28:00,6:28:00,EMSI,1,,,,\n"
        "CITY2,6:35:00,6:37:00,DADAN,2,,,,\n"
        "CITY2,6:42:00,6:44:00,NADAV,3,,,,\n"
        "CITY2,6:49:00,6:51:00,NANAA,4,,,,\n"
        "CITY2,6:56:00,6:58:00,STAGECOACH,5,,,,\n"
        "AB1,8:00:00,8:00:00,BEATTY_AIRPORT,1,,,,\n"
        "AB1,8:10:00,8:15:00,BULLFROG,2,,,,\n"
        "AB2,12:05:00,12:05:00,BULLFROG,1,,,,\n"
        "AB2,12:15:00,12:15:00,BEATTY_AIRPORT,2\n"
        "BFC1,8:20:00,8:20:00,BULLFROG,1\n"
        "BFC1,9:20:00,9:20:00,FUR_CREEK_RES,2\n"
        "BFC2,11:00:00,11:00:00,FUR_CREEK_RES,1\n"
        "BFC2,12:00:00,12:00:00,BULLFROG,2\n"
        "AAMV1,8:00:00,8:00:00,BEATTY_AIRPORT,1\n"
        "AAMV1,9:00:00,9:00:00,AMV,2\n"
        "AAMV2,10:00:00,10:00:00,AMV,1\n"
        "AAMV2,11:00:00,11:00:00,BEATTY_AIRPORT,2\n"
        "AAMV3,13:00:00,13:00:00,BEATTY_AIRPORT,1\n"
        "AAMV3,14:00:00,14:00:00,AMV,2\n"
        "AAMV4,15:00:00,15:00:00,AMV,1\n"
        "AAMV4,16:00:00,16:00:00,BEATTY_AIRPORT,2\n"
    ),
    # The sample runs 2007-2010; stretched to 2000-2099 so its trips run on any test day.
    "calendar.txt": (
        "service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date\n"
        "FULLW,1,1,1,1,1,1,1,20000101,20991231\n"
        "WE,0,0,0,0,0,1,1,20000101,20991231\n"
    ),
    "calendar_dates.txt": "service_id,date,exception_type\nFULLW,20070604,2\n",
}


def static(path):
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for name, text in SAMPLE.items():
            archive.writestr("sample-feed/" + name if name == "stop_times.txt" else name, text)


def realtime(path):
    from google.transit import gtfs_realtime_pb2

    updates = json.load(sys.stdin)
    feed = gtfs_realtime_pb2.FeedMessage()
    feed.header.gtfs_realtime_version = "2.0"
    feed.header.timestamp = updates.get("timestamp", 0)
    for index, update in enumerate(updates["trips"]):
        entity = feed.entity.add()
        entity.id = str(index)
        trip = entity.trip_update
        if "trip_id" in update:
            trip.trip.trip_id = update["trip_id"]
        if "route_id" in update:
            trip.trip.route_id = update["route_id"]
        if "start_date" in update:
            trip.trip.start_date = update["start_date"]
        if update.get("canceled"):
            trip.trip.schedule_relationship = gtfs_realtime_pb2.TripDescriptor.CANCELED
        if "delay" in update:
            trip.delay = update["delay"]
        for stop in update.get("stops", []):
            stop_time = trip.stop_time_update.add()
            if "stop_sequence" in stop:
                stop_time.stop_sequence = stop["stop_sequence"]
            if "stop_id" in stop:
                stop_time.stop_id = stop["stop_id"]
            for kind in ("arrival", "departure"):
                event = stop.get(kind)
                if event is not None:
                    if "time" in event:
                        getattr(stop_time, kind).time = event["time"]
                    if "delay" in event:
                        getattr(stop_time, kind).delay = event["delay"]
            if stop.get("skipped"):
                stop_time.schedule_relationship = gtfs_realtime_pb2.TripUpdate.StopTimeUpdate.SKIPPED
    with open(path, "wb") as out:
        out.write(feed.SerializeToString())


{"static": static, "realtime": realtime}[sys.argv[1]](sys.argv[2])
