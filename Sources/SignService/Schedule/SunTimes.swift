import Platform

/// Where the sign stands, for sunrise and sunset.
public struct Location: Sendable, Equatable {
  /// Degrees north (negative: south).
  public var latitude: Double
  /// Degrees east (negative: west).
  public var longitude: Double

  public init(latitude: Double, longitude: Double) {
    self.latitude = latitude
    self.longitude = longitude
  }
}

/// Sunrise and sunset, computed here, offline, as NOAA's solar calculator does (Meeus's
/// low-precision solar coordinates: the sun's apparent longitude, the obliquity, the
/// equation of time), for the sun's upper edge at the horizon with standard refraction (a
/// zenith of 90.833°), evaluated at the moment itself. Checked against astral every fourth
/// day of a year: within a minute up to 60° of latitude, within two at 64°; no time at all
/// on days the sun does not rise or set.
public enum SunTimes {
  /// The Unix time of sunrise on `date` at `location`, or nil on a polar day or night.
  public static func sunrise(on date: LocalDate, at location: Location) -> Double? {
    time(on: date, at: location, rising: true)
  }

  /// The Unix time of sunset on `date` at `location`, or nil on a polar day or night.
  public static func sunset(on date: LocalDate, at location: Location) -> Double? {
    time(on: date, at: location, rising: false)
  }

  static func time(on date: LocalDate, at location: Location, rising: Bool) -> Double? {
    // Evaluated at local solar noon first, then again at the time that gives, so the sun's
    // declination and the equation of time are those of the moment itself.
    var minutesUTC = 720 - 4 * location.longitude
    for _ in 0..<2 {
      guard let next = minutes(on: date, at: location, rising: rising, utcMinute: minutesUTC) else { return nil }
      minutesUTC = next
    }
    return Double(date.dayNumber) * 86_400 + minutesUTC * 60
  }

  /// The event's minutes after 00:00 UTC of `date`, with the sun's place taken at
  /// `utcMinute` (NOAA's solar calculator: Meeus's low-precision solar coordinates).
  static func minutes(on date: LocalDate, at location: Location, rising: Bool, utcMinute: Double) -> Double? {
    let radians = Double.pi / 180
    // Julian centuries since J2000.0 at the moment.
    let julianDay = Double(date.dayNumber) + 2_440_587.5 + utcMinute / 1440
    let t = (julianDay - 2_451_545) / 36_525
    let meanLongitude = (280.46646 + t * (36_000.76983 + 0.0003032 * t)).truncatingRemainder(dividingBy: 360)
    let meanAnomaly = 357.52911 + t * (35_999.05029 - 0.0001537 * t)
    let eccentricity = 0.016708634 - t * (0.000042037 + 0.0000001267 * t)
    let m = meanAnomaly * radians
    let center = Trigonometry.sine(m) * (1.914602 - t * (0.004817 + 0.000014 * t)) + Trigonometry.sine(2 * m) * (0.019993 - 0.000101 * t) + Trigonometry.sine(3 * m) * 0.000289
    let omega = (125.04 - 1934.136 * t) * radians
    let apparentLongitude = (meanLongitude + center - 0.00569 - 0.00478 * Trigonometry.sine(omega)) * radians
    let meanObliquity = 23 + (26 + (21.448 - t * (46.815 + t * (0.00059 - t * 0.001813))) / 60) / 60
    let obliquity = (meanObliquity + 0.00256 * Trigonometry.cosine(omega)) * radians
    let declination = Trigonometry.arcSine(Trigonometry.sine(obliquity) * Trigonometry.sine(apparentLongitude))
    let y = Trigonometry.power(Trigonometry.tangent(obliquity / 2), 2)
    let l0 = meanLongitude * radians
    let equationOfTime = 4 / radians * (y * Trigonometry.sine(2 * l0) - 2 * eccentricity * Trigonometry.sine(m) + 4 * eccentricity * y * Trigonometry.sine(m) * Trigonometry.cosine(2 * l0)
      - 0.5 * y * y * Trigonometry.sine(4 * l0) - 1.25 * eccentricity * eccentricity * Trigonometry.sine(2 * m))
    let latitude = location.latitude * radians
    let cosine = Trigonometry.cosine(90.833 * radians) / (Trigonometry.cosine(latitude) * Trigonometry.cosine(declination)) - Trigonometry.tangent(latitude) * Trigonometry.tangent(declination)
    guard (-1...1).contains(cosine) else { return nil }
    let hourAngle = Trigonometry.arcCosine(cosine) / radians
    return 720 - 4 * (location.longitude + (rising ? hourAngle : -hourAngle)) - equationOfTime
  }
}
