import Foundation
import TestSupport
import Testing

@testable import SignService

/// Our sunrise and sunset (NOAA's equations) against astral, a separate implementation in
/// Python from PyPI, every fourth day of 2026 in cities from the equator to the Arctic.
@Suite(.offThePool) struct SunTimesTests {
  /// A Python with astral: the venv `.ci/run` makes.
  static let python = PythonTools.python([".build/venv-astral/bin/python"], importing: "astral")

  static let places: [(name: String, location: Location, tolerance: Double)] = [
    ("Shanghai", Location(latitude: 31.23, longitude: 121.47), 60),
    ("Singapore", Location(latitude: 1.35, longitude: 103.82), 60),
    ("Berlin", Location(latitude: 52.52, longitude: 13.40), 60),
    ("New York", Location(latitude: 40.71, longitude: -74.01), 60),
    ("Sydney", Location(latitude: -33.87, longitude: 151.21), 60),
    ("Oslo", Location(latitude: 59.91, longitude: 10.75), 60),
    ("Reykjavik", Location(latitude: 64.15, longitude: -21.94), 120),
  ]

  @Test(.enabled(if: python != nil, "needs astral from PyPI in .build/venv-astral (.ci/run installs it)"))
  func withinAMinuteOfAstralAndTwoNearTheArctic() throws {
    var queries: [(String, Location, Double, LocalDate)] = []
    for place in SunTimesTests.places {
      for day in stride(from: 0, to: 365, by: 4) {
        queries.append((place.name, place.location, place.tolerance, LocalDate(year: 2026, month: 1, day: 1).adding(days: day)))
      }
    }
    let input = queries.map { "\($0.1.latitude) \($0.1.longitude) \($0.3)" }.joined(separator: "\n") + "\n"
    let result = try ChildProcess.run(SunTimesTests.python!, ["Tests/Sun/astral_times.py"], input: Data(input.utf8), timeout: 120)
    let answers = result.stdout.split(separator: "\n")
    try #require(answers.count == queries.count, "\(result.stderr)")
    var worst = 0.0
    for ((name, location, tolerance, date), answer) in zip(queries, answers) {
      let theirs = answer.split(separator: " ").map { Double($0) }
      let ours = [SunTimes.sunrise(on: date, at: location), SunTimes.sunset(on: date, at: location)]
      for (mine, other) in zip(ours, theirs) {
        #expect((mine == nil) == (other == nil), "\(name) \(date): a sunrise or sunset on one side only")
        if let mine, let other {
          worst = max(worst, abs(mine - other))
          #expect(abs(mine - other) <= tolerance, "\(name) \(date): \(mine) against astral's \(other)")
        }
      }
    }
    #expect(worst > 0, "compared something")
  }
}
