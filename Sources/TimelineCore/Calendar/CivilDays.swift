/// Day numbers of the proleptic Gregorian calendar (Howard Hinnant's `days_from_civil`),
/// shared by the calendars of the package.
package enum CivilDays {
  /// Days since 1970-01-01 of a date.
  package static func number(_ year: Int, _ month: Int, _ day: Int) -> Int {
    let y = month <= 2 ? year - 1 : year
    let era = (y >= 0 ? y : y - 399) / 400
    let yearOfEra = y - era * 400
    let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    return era * 146_097 + dayOfEra - 719_468
  }
}
