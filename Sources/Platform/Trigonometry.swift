#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The C library's trigonometry, in radians, for the few places that need it (sunrise and
/// sunset), so that they need neither Foundation nor the C library's name.
public enum Trigonometry {
  public static func sine(_ x: Double) -> Double { sin(x) }
  public static func cosine(_ x: Double) -> Double { cos(x) }
  public static func tangent(_ x: Double) -> Double { tan(x) }
  public static func arcSine(_ x: Double) -> Double { asin(x) }
  public static func arcCosine(_ x: Double) -> Double { acos(x) }
  public static func power(_ x: Double, _ y: Double) -> Double { pow(x, y) }
}
