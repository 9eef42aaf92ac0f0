/// A GTFS-Realtime feed (the protobuf `FeedMessage` of gtfs-realtime.proto), the part a
/// departure board needs: each trip update's trip and its stops' predicted times.
public struct GTFSRealtimeFeed: Sendable, Equatable {
  /// A prediction for one stop of a trip.
  public struct StopTime: Sendable, Equatable {
    public var stopSequence: Int?
    public var stopID: String?
    /// Predicted Unix times, if given.
    public var arrival: Int64?
    public var departure: Int64?
    /// Delays in seconds, if given.
    public var arrivalDelay: Int?
    public var departureDelay: Int?
    /// The stop is skipped on this trip.
    public var skipped = false

    public init(
      stopSequence: Int? = nil, stopID: String? = nil, arrival: Int64? = nil, departure: Int64? = nil, arrivalDelay: Int? = nil,
      departureDelay: Int? = nil, skipped: Bool = false
    ) {
      (self.stopSequence, self.stopID, self.arrival, self.departure) = (stopSequence, stopID, arrival, departure)
      (self.arrivalDelay, self.departureDelay, self.skipped) = (arrivalDelay, departureDelay, skipped)
    }
  }

  /// One trip's update.
  public struct TripUpdate: Sendable, Equatable {
    public var tripID: String?
    public var routeID: String?
    /// `YYYYMMDD`, the service day the trip runs on.
    public var startDate: String?
    public var canceled = false
    /// The trip's delay in seconds where no stop says its own.
    public var delay: Int?
    public var stopTimes: [StopTime] = []
  }

  /// When the feed was made (Unix time), if it says.
  public var timestamp: Int64?
  public var tripUpdates: [TripUpdate]

  /// Reads a serialized `FeedMessage`.
  ///
  /// - Throws: ``ProtobufReader/Malformed`` for bytes that are not one.
  public init(_ bytes: [UInt8]) throws(ProtobufReader.Malformed) {
    var timestamp: Int64?
    var updates: [TripUpdate] = []
    try ProtobufReader(bytes[...]).fields { number, value throws(ProtobufReader.Malformed) in
      switch (number, value) {
      case (1, .bytes(let header)):
        try ProtobufReader(header).fields { field, value throws(ProtobufReader.Malformed) in
          if field == 3, let time = value.int64 { timestamp = time }
        }
      case (2, .bytes(let entity)):
        try ProtobufReader(entity).fields { field, value throws(ProtobufReader.Malformed) in
          if field == 3, let trip = value.message { updates.append(try GTFSRealtimeFeed.tripUpdate(trip)) }
        }
      default: break
      }
    }
    self.timestamp = timestamp
    tripUpdates = updates
  }

  static func tripUpdate(_ bytes: ArraySlice<UInt8>) throws(ProtobufReader.Malformed) -> TripUpdate {
    var update = TripUpdate()
    try ProtobufReader(bytes).fields { number, value throws(ProtobufReader.Malformed) in
      switch number {
      case 1:
        guard let descriptor = value.message else { return }
        try ProtobufReader(descriptor).fields { field, value throws(ProtobufReader.Malformed) in
          switch field {
          case 1: update.tripID = value.text
          case 3: update.startDate = value.text
          case 4: update.canceled = value.int64 == 3
          case 5: update.routeID = value.text
          default: break
          }
        }
      case 2:
        guard let stop = value.message else { return }
        update.stopTimes.append(try stopTime(stop))
      case 5: update.delay = value.int64.map { Int(truncatingIfNeeded: Int32(truncatingIfNeeded: $0)) }
      default: break
      }
    }
    return update
  }

  static func stopTime(_ bytes: ArraySlice<UInt8>) throws(ProtobufReader.Malformed) -> StopTime {
    var stop = StopTime()
    try ProtobufReader(bytes).fields { number, value throws(ProtobufReader.Malformed) in
      switch number {
      case 1: stop.stopSequence = value.int64.map { Int(truncatingIfNeeded: $0) }
      case 2, 3:
        guard let event = value.message else { return }
        var time: Int64?, delay: Int?
        try ProtobufReader(event).fields { field, value throws(ProtobufReader.Malformed) in
          if field == 1, let raw = value.int64 { delay = Int(Int32(truncatingIfNeeded: raw)) }
          if field == 2, let raw = value.int64 { time = raw }
        }
        if number == 2 { (stop.arrival, stop.arrivalDelay) = (time, delay) } else { (stop.departure, stop.departureDelay) = (time, delay) }
      case 4: stop.stopID = value.text
      case 5: stop.skipped = value.int64 == 1
      default: break
      }
    }
    return stop
  }
}
