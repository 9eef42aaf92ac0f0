import Foundation  // mktime, the C library's reading of a local date
import Testing

@testable import Marquee
@testable import TimelineCore

/// Countdowns and count-ups in message text: the arithmetic and the formats, whatever the
/// machine's time zone (the moment is the C library's reading of the local date).
@Suite struct TextTemplateTests {
  static func moment(_ year: Int32, _ month: Int32, _ day: Int32) -> Double {
    var parts = tm()
    parts.tm_year = year - 1900
    parts.tm_mon = month - 1
    parts.tm_mday = day
    parts.tm_isdst = -1
    return Double(mktime(&parts))
  }

  @Test func aCountdownShowsDaysHoursAndMinutesLeft() {
    let festival = TextTemplateTests.moment(2027, 2, 17)
    let template = TextTemplate("Spring Festival in {countdown:2027-02-17 00:00}")
    #expect(template.isDynamic)
    let before = festival - Double(((12 * 24 + 3) * 60 + 4) * 60)
    #expect(template.expand(at: before) == "Spring Festival in 12d 3h 4m")
    // The minute begun counts: 30 s before, one minute is left; after, nothing is.
    #expect(template.expand(at: festival - 30) == "Spring Festival in 0d 0h 1m")
    #expect(template.expand(at: festival) == "Spring Festival in 0d 0h 0m")
    #expect(template.expand(at: festival + 3600) == "Spring Festival in 0d 0h 0m")
    #expect(TextTemplate("还有 {countdown:2027-02-17 00:00|%d 天}").expand(at: before) == "还有 12 天")
    #expect(TextTemplate("{countdown:2027-02-17 00:00|%H h %M min %%}").expand(at: before) == "291 h 17464 min %")
    // It changes at the minute, like {time}.
    #expect(template.nextChange(after: before + 1) == before + 60)
  }

  @Test func sinceCountsUp() {
    let opened = TextTemplateTests.moment(2020, 1, 1)
    let template = TextTemplate("Open for {since:2020-01-01 00:00|%d days}")
    #expect(template.expand(at: opened + 86_400 * 100 + 5) == "Open for 100 days")
    #expect(template.expand(at: opened - 86_400) == "Open for 0 days")
  }

  @Test func aWrongMomentStaysAsWritten() {
    for text in ["{countdown:2027-13-01 00:00}", "{countdown:tomorrow}", "{countdown:2027-02-17}"] {
      let template = TextTemplate(text)
      #expect(!template.isDynamic && template.expand(at: 0) == text, "\(text)")
    }
  }
}
